/**
 * Users (spec section 3): email, phone, role, status, user type, uuid, permissions (empty by default).
 *
 * `role` is the company's named role (free text such as 'Dispatcher', shown in the list); access is decided
 * by `user_type` and `permissions`. A user of a scoped type names its scope: a branch admin its branch, a
 * school admin its school, a sub company admin its station. A new user without a password gets a
 * set-password link (POST /v1/set-password/{token}).
 */
import { z } from 'zod';
import {
  entityStatusSchema,
  fieldError,
  isoDateTimeSchema,
  listQuerySchema,
  nullableString,
  optionalPhoneField,
  optionalText,
  optionalUuidRef,
  passwordField,
  requiredMessage,
  emailField,
  text,
  uuidSchema,
} from './common';

export const userTypes = [
  'admin',
  'branch_admin',
  'school_admin',
  'sub_company_admin',
  'super_admin',
] as const;
export const userTypeSchema = z.enum(userTypes, { error: fieldError('User type') });
export type UserType = z.infer<typeof userTypeSchema>;

/** A permission name such as 'vehicles.create'. */
export const permissionSchema = z.string().regex(/^[a-z][a-z0-9_-]*(\.[a-z0-9_-]+)*$/);

export const userSchema = z.object({
  uuid: uuidSchema,
  name: z.string(),
  email: nullableString,
  phone: nullableString,
  role: nullableString,
  status: entityStatusSchema,
  user_type: userTypeSchema,
  permissions: z.array(z.string()).default([]),
  branch_uuid: uuidSchema.nullable().optional(),
  school_uuid: uuidSchema.nullable().optional(),
  station_uuid: uuidSchema.nullable().optional(),
  avatar: nullableString.optional(),
  last_login_at: isoDateTimeSchema.nullable().optional(),
  created_at: isoDateTimeSchema.optional(),
  updated_at: isoDateTimeSchema.optional(),
});
export type User = z.infer<typeof userSchema>;

/** Scope each scoped user type must name. */
export const userTypeScope = {
  branch_admin: ['branch_uuid', 'Branch'],
  school_admin: ['school_uuid', 'School'],
  sub_company_admin: ['station_uuid', 'Station'],
} as const;

export const userInputSchema = z
  .object({
    name: text('Name', 150),
    email: emailField(),
    phone: optionalPhoneField(),
    role: optionalText('Role', 100),
    user_type: userTypeSchema,
    permissions: z.array(permissionSchema).max(500).default([]),
    status: entityStatusSchema.default('active'),
    branch_uuid: optionalUuidRef('Branch'),
    school_uuid: optionalUuidRef('School'),
    station_uuid: optionalUuidRef('Station'),
    /** Optional: without it the user receives a set-password link. */
    password: passwordField().optional(),
  })
  .superRefine((value, ctx) => {
    const scope = userTypeScope[value.user_type as keyof typeof userTypeScope] as
      readonly [keyof typeof value, string] | undefined;
    if (scope && !value[scope[0]]) {
      ctx.addIssue({ code: 'custom', path: [scope[0]], message: requiredMessage(scope[1]) });
    }
  });
export type UserInput = z.input<typeof userInputSchema>;

export const userListQuerySchema = listQuerySchema(entityStatusSchema, {
  user_type: userTypeSchema.optional(),
  branch_uuid: uuidSchema.optional(),
  school_uuid: uuidSchema.optional(),
  station_uuid: uuidSchema.optional(),
});
export type UserListQuery = z.input<typeof userListQuerySchema>;
