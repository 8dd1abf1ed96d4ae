import type { Operation } from '../http/operation';
import { AuditListQuerySchema, AuditLogSchema } from './schema';

// One export per operation: handlers import this module as a namespace (`import * as auditOperations`),
// so a bundle keeps, and builds at cold start, only the schemas of its own operation.
export const list = { route: 'audit.list', query: AuditListQuerySchema, response: AuditLogSchema, list: true } satisfies Operation;
