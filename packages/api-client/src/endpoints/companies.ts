/** Transport companies (platform operation) and their branches and stations. */
import { z } from 'zod';
import { dataEnvelope, entityStatusSchema } from '../schemas/common';
import {
  branchInputSchema,
  branchListQuerySchema,
  branchSchema,
  companyCreateInputSchema,
  companyCreatedSchema,
  platformCompanySchema,
  stationInputSchema,
  stationListQuerySchema,
  stationSchema,
} from '../schemas/company';
import { crud, endpoint } from './define';

/** Platform operation: super admins only (the rule lives in tenancy/ranks.ts assertPlatformOperator). */
export const platformEndpoints = {
  'companies.list': endpoint({
    method: 'GET',
    path: '/v1/platform/companies',
    response: dataEnvelope(z.array(platformCompanySchema)),
    auth: 'session',
    summary: 'Every transport company of the platform (super admins only)',
  }),
  'companies.create': endpoint({
    method: 'POST',
    path: '/v1/platform/companies',
    body: companyCreateInputSchema,
    response: dataEnvelope(companyCreatedSchema),
    auth: 'session',
    summary:
      'Onboard a transport company with its first company admin, who gets a set-password invitation (super admins only)',
  }),
} as const;

export const branchCrud = crud('branches', 'branches', 'branch', {
  item: branchSchema,
  input: branchInputSchema,
  query: branchListQuerySchema,
  status: entityStatusSchema,
});

export const stationCrud = crud('stations', 'stations', 'station', {
  item: stationSchema,
  input: stationInputSchema,
  query: stationListQuerySchema,
  status: entityStatusSchema,
});
