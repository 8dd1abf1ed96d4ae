import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as productionOperations from '#shared/production/contract';
import { machineQueue } from '#shared/production/machines';

export const handler = defineHandler(productionOperations.machineQueue, async ({ tenant, params }) =>
  ok(await machineQueue(tenant, params.id)),
);
