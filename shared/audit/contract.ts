import type * as z from 'zod';
import type { Operation } from '#shared/schemas/operation';
import { auditList } from '#shared/routes';
import { AuditListQuerySchema, AuditLogSchema } from './schema';

// Handlers import this module as a namespace (`import * as auditOperations`) and the schemas are
// marked pure, so each bundle keeps — and builds at cold start — only its own operation's.
export const list = { route: auditList, query: AuditListQuerySchema, list: true } satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  list: AuditLogSchema,
} satisfies Record<string, z.ZodType>;
