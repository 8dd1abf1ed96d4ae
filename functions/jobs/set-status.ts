import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as productionOperations from '#shared/production/contract';
import { moveJob } from '#shared/fulfilment/job-moves';

export const handler = defineHandler(productionOperations.setJobStatus, async ({ tenant, principal, params, body }) =>
  ok(await moveJob(tenant, params.id, body, principal.keyPrefix)),
);
