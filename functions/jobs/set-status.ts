import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as productionOperations from '#shared/production/contract';
import { changeJobStatus } from '#shared/production/jobs';

export const handler = defineHandler(productionOperations.setJobStatus, async ({ tenant, principal, params, body }) =>
  ok(await changeJobStatus(tenant, params.id, body, principal.keyPrefix)),
);
