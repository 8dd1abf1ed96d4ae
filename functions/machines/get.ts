import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as productionOperations from '#shared/production/contract';
import { getMachine } from '#shared/production/machines';

export const handler = defineHandler(productionOperations.getMachine, async ({ tenant, params }) =>
  ok(await getMachine(tenant, params.id)),
);
