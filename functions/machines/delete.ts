import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as productionOperations from '#shared/production/contract';
import { deleteMachine } from '#shared/production/machines';

export const handler = defineHandler(productionOperations.deleteMachine, async ({ tenant, params }) =>
  ok(await deleteMachine(tenant, params.id)),
);
