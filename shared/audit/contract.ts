import type { Operation } from '#shared/schemas/operation';
import { AuditListQuerySchema, AuditLogSchema } from './schema';

// One export per operation: handlers import this module as a namespace (`import * as auditOperations`),
// so a bundle keeps only the operation it serves. The schema modules imported here still run whole
// at cold start; that is why a GET by id has a contract module of its own (products/get-contract.ts).
export const list = { route: 'audit.list', query: AuditListQuerySchema, response: AuditLogSchema, list: true } satisfies Operation;
