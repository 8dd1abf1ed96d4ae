import * as z from 'zod';
import { responseSchema } from '#shared/schemas/response';
import { bodyId, lineText, queryId, requiredText } from '#shared/schemas/common';
import { cursorOnFirstPage, idCursor, paginationQuery } from '#shared/schemas/pagination';
import { FILE_PURPOSES, FILE_STATUSES, storedFile } from './stored';
import { MAX_PRESIGNED_BYTES } from './limits';

/*
 * Every top-level schema is marked pure: a handler's bundle keeps only its operation's.
 */

/** A file as responses show it: derived from the stored field list (stored.ts). */
export const FileSchema = /* @__PURE__ */ (() => responseSchema(storedFile, { id: 'File' }))();

export const FileUploadSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      filename: requiredText(255).meta({ example: 'flyer-a5.pdf' }),
      content_type: lineText(100)
        .min(1, 'must not be empty')
        .meta({ description: 'What the file is; checked against its bytes on completion', example: 'application/pdf' }),
      size: z
        .number()
        .int('must be an integer')
        .min(1, 'must be at least 1 byte')
        .max(MAX_PRESIGNED_BYTES, `must be at most ${MAX_PRESIGNED_BYTES} bytes (2 GiB)`)
        .meta({ description: 'Bytes: the upload must be exactly this size', example: 20_971_520 }),
      sha256: z
        .string()
        .regex(/^[0-9a-fA-F]{64}$/, 'must be 64 hexadecimal characters')
        .transform((value) => value.toLowerCase())
        .optional()
        .meta({ description: "The file's SHA-256 (hex): checked on completion" }),
      purpose: z.enum(FILE_PURPOSES).optional().default('artwork'),
      order_id: bodyId('The order the file is for').optional(),
    })
    .meta({ id: 'FileUpload', description: 'A presigned upload of up to 2 GiB: POST the file to `upload.url`, then complete it.' }))();

export const PresignedUploadSchema = /* @__PURE__ */ z
  .object({
    file: FileSchema,
    upload: z.object({
      url: z.string().meta({ description: "POST the form here: `fields` first, the file last, as field 'file'" }),
      fields: z.record(z.string(), z.string()),
      expires_at: z.string(),
      max_bytes: z.number().int(),
    }),
  })
  .meta({ id: 'PresignedUpload' });

export const FileListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      order_id: queryId('order_id').optional().meta({ description: "One order's files" }),
      purpose: z.enum(FILE_PURPOSES).optional(),
      status: z.enum(FILE_STATUSES).optional(),
      starting_after: idCursor('files'),
    })
    .superRefine(cursorOnFirstPage))();

export const DownloadQuerySchema = /* @__PURE__ */ z.strictObject({
  format: z.enum(['url']).optional().meta({ description: '`url`: answer the presigned URL as JSON instead of a 302' }),
});

export const DownloadSchema = /* @__PURE__ */ z
  .object({ url: z.string(), expires_at: z.string() })
  .meta({ id: 'FileDownload', description: 'A presigned GET, valid 15 minutes' });

export const MultipartUploadSchema = /* @__PURE__ */ z
  .object({
    file: z.string().meta({ format: 'binary', description: 'The file (up to 4 MiB through the API; larger: POST /v1/files/uploads)' }),
    purpose: z.enum(FILE_PURPOSES).optional(),
    order_id: z.string().optional().meta({ description: 'The order the file is for (an id)' }),
  })
  .meta({ id: 'FileMultipartUpload' });

export type FileUpload = z.output<typeof FileUploadSchema>;
export type FileListQuery = z.output<typeof FileListQuerySchema>;
export type FileView = z.output<typeof FileSchema>;
