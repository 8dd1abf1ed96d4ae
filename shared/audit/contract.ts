import type { Operation } from '#shared/schemas/operation';
import { auditList } from '#shared/routes';
import { AuditListQuerySchema, AuditLogSchema } from './schema';

// Handlers import this module as a namespace (`import * as auditOperations`) and the schemas are
// marked pure, so each bundle keeps — and builds at cold start — only its own operation's.
export const list = { route: auditList, query: AuditListQuerySchema, response: AuditLogSchema, list: true } satisfies Operation;
