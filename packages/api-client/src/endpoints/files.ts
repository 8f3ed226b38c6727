/** Stored files: download and upload. */
import { dataEnvelope } from '../schemas/common';
import { fileParamsSchema, fileQuerySchema, uploadParamsSchema, uploadedFileSchema } from '../schemas/files';
import { binaryResponseSchema, endpoint } from './define';

export const fileEndpoints = {
  'files.show': endpoint({
    method: 'GET',
    path: '/v1/file/:kind/:name',
    params: fileParamsSchema,
    query: fileQuerySchema,
    response: binaryResponseSchema,
    responseType: 'blob',
    auth: 'session',
    summary: 'Download a stored file',
  }),
  'files.upload': endpoint({
    method: 'POST',
    path: '/v1/files/:kind',
    params: uploadParamsSchema,
    bodyType: 'multipart',
    response: dataEnvelope(uploadedFileSchema),
    auth: 'company',
    summary: 'Upload a file (multipart field "file")',
  }),
} as const;
