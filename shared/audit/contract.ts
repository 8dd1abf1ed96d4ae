import { defineOperations } from '../http/operation';
import { AuditListQuerySchema, AuditLogSchema } from './schema';

export const auditOperations = defineOperations({
  list: { route: 'audit.list', query: AuditListQuerySchema, response: AuditLogSchema, list: true },
});
