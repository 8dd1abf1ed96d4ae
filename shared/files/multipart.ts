/**
 * The fields of a multipart upload, as the multipart middleware leaves them in `event.body`
 * (shared/http/middleware/multipart-body.ts): the schema the handler checks them with, and the
 * upload they make.
 */
import * as z from 'zod';
import { isIdText } from '#shared/schemas/common';
import type { MultipartFile } from './service';
import { FILE_PURPOSES } from './stored';

const part = z.object({
  filename: z.string().optional(),
  mimetype: z.string().optional(),
  content: z.instanceof(Buffer),
});

export const MultipartFieldsSchema = /* @__PURE__ */ z.strictObject({
  file: part,
  purpose: z.enum(FILE_PURPOSES).optional().default('artwork'),
  order_id: z.string().refine(isIdText, 'must be a positive integer').transform(Number).optional(),
});

/**
 * The form encoding gives a part without a Content-Type of its own `text/plain` (RFC 7578 §4.4), so
 * the parser cannot tell it from a declared one: for a file part it means "look at the bytes", as
 * application/octet-stream does. Any other type is a declaration, checked against the one list.
 */
const declaredOf = (mimetype: string | undefined): string | undefined =>
  mimetype === undefined || /^text\/plain\s*(;|$)/i.test(mimetype) ? undefined : mimetype;

export function multipartUploadOf(fields: z.output<typeof MultipartFieldsSchema>): MultipartFile {
  return {
    filename: fields.file.filename,
    declaredType: declaredOf(fields.file.mimetype),
    bytes: new Uint8Array(fields.file.content.buffer, fields.file.content.byteOffset, fields.file.content.byteLength),
    purpose: fields.purpose,
    orderId: fields.order_id,
  };
}
