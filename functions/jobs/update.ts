import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as productionOperations from '#shared/production/contract';
import { updateJob } from '#shared/production/jobs';

export const handler = defineHandler(productionOperations.updateJob, async ({ tenant, params, body }) =>
  ok(await updateJob(tenant, params.id, body)),
);
