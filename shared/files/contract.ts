/**
 * The file operations. Handlers import this module as a namespace (`import * as fileOperations`);
 * the schemas are marked pure, so each bundle keeps only its own.
 */
import type * as z from 'zod';
import { DeletedSchema, idPath } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
import {
  filesComplete,
  filesCreateUpload,
  filesDelete,
  filesDownload,
  filesGet,
  filesList,
  filesOfOrder,
  filesUpload,
} from '#shared/routes';
import {
  DownloadQuerySchema,
  DownloadSchema,
  FileListQuerySchema,
  FileSchema,
  FileUploadSchema,
  MultipartUploadSchema,
  PresignedUploadSchema,
} from './schema';

const filePath = /* @__PURE__ */ idPath('File id');

export const upload = {
  route: filesUpload,
  rawBody: {
    contentType: 'multipart/form-data',
    schema: MultipartUploadSchema,
    description:
      'The file in the field `file` (up to 4 MiB: what API Gateway and Lambda carry after base64), optional `purpose` and `order_id`. ' +
      'Its type is decided by its bytes: PDF, PNG, JPEG, TIFF, SVG, PostScript/EPS or ZIP; a declared type that differs, ' +
      'or one outside that list, is 415. Counted against the daily upload quota: 429 when its files are used up, 413 when its bytes would be.',
  },
  status: 201,
  errors: [413, 415],
} satisfies Operation;
/** 413 also when the declared size would pass the day's upload volume; 429 when the day's files are used up. */
export const createUpload = { route: filesCreateUpload, body: FileUploadSchema, status: 201, errors: [413, 415] } satisfies Operation;
export const complete = {
  route: filesComplete,
  params: filePath,
  accepted:
    'An upload over 32 MiB: `processing` while the file worker verifies its SHA-256 and moves it off the request path; ' +
    'it becomes `ready` (or `rejected`, with the reason) shortly — read it with GET /v1/files/{id}.',
  errors: [404, 409, 415],
} satisfies Operation;
export const list = { route: filesList, query: FileListQuerySchema, list: true } satisfies Operation;
export const get = { route: filesGet, params: filePath, errors: [404] } satisfies Operation;
export const download = {
  route: filesDownload,
  params: filePath,
  query: DownloadQuerySchema,
  documents: {
    contentTypes: [],
    description: 'With `format=url`: the presigned URL as JSON.',
    redirects: 'A redirect to a presigned GET (15 minutes) that downloads the file under its name (`Content-Disposition: attachment`).',
  },
  errors: [404, 409],
} satisfies Operation;
export const ofOrder = { route: filesOfOrder, params: /* @__PURE__ */ idPath('Order id'), list: true, errors: [404] } satisfies Operation;
export const remove = { route: filesDelete, params: filePath, errors: [404, 409] } satisfies Operation;

/** What each operation answers (its `data`), for the OpenAPI document. */
export const responses = {
  upload: FileSchema,
  createUpload: PresignedUploadSchema,
  complete: FileSchema,
  list: FileSchema,
  get: FileSchema,
  download: DownloadSchema,
  ofOrder: FileSchema,
  remove: DeletedSchema,
} satisfies Record<string, z.ZodType>;
