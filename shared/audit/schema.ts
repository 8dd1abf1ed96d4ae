import * as z from 'zod';
import { storableText } from '#shared/schemas/common';
import { paginationQuery } from '#shared/schemas/pagination';
import { responseSchema } from '#shared/schemas/response';
import { decodeAuditCursor } from './cursor';
import { storedAuditLog } from './stored';

const isoDateTime = /* @__PURE__ */ z.iso.datetime({ offset: true, message: 'must be an ISO 8601 date-time such as 2026-11-21T00:00:00Z' });

/** An audit record as responses show it: derived from the stored field list (stored.ts). */
export const AuditLogSchema = /* @__PURE__ */ responseSchema(storedAuditLog, { id: 'AuditLog' });

export const AuditListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      page: paginationQuery.page.meta({ maximum: 1, description: 'Always 1: the audit log pages by cursor (starting_after)' }),
      from: isoDateTime.optional().meta({ description: 'Earliest time, inclusive (default: 7 days ago)' }),
      to: isoDateTime.optional().meta({ description: 'Latest time, inclusive (default: now)' }),
      status: z
        .string()
        .regex(/^[1-5]\d\d$|^[1-5]xx$/, 'must be a status code such as 429 or a class such as 4xx')
        .optional(),
      method: z
        .string()
        .transform((value) => value.toUpperCase())
        .pipe(z.enum(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD']))
        .optional(),
      path_prefix: z.string().startsWith('/', 'must start with /').max(500).superRefine(storableText()).optional(),
      starting_after: z
        .string()
        .transform((text, ctx) => {
          const cursor = decodeAuditCursor(text);
          if (!cursor) ctx.addIssue({ code: 'custom', message: 'must be the next_cursor of an earlier page of this list' });
          return cursor ?? z.NEVER;
        })
        .optional()
        .meta({ description: "Cursor: the previous page's pagination.next_cursor (the records after it, older)" }),
    })
    .refine((query) => !query.from || !query.to || Date.parse(query.from) <= Date.parse(query.to), {
      message: 'must not be after to',
      path: ['from'],
    })
    .refine((query) => query.page === 1, {
      message: 'the audit log pages by cursor: pass starting_after=<pagination.next_cursor of the previous page>',
      path: ['page'],
    }))();

export type AuditLog = z.output<typeof AuditLogSchema>;
export type AuditListQuery = z.output<typeof AuditListQuerySchema>;
