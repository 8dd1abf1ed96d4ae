import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as productionOperations from '#shared/production/contract';
import { updateMachine } from '#shared/production/machines';

export const handler = defineHandler(productionOperations.updateMachine, async ({ tenant, params, body }) =>
  ok(await updateMachine(tenant, params.id, body)),
);
