import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as productionOperations from '#shared/production/contract';
import { createMachine } from '#shared/production/machines';

export const handler = defineHandler(
  productionOperations.createMachine,
  async ({ tenant, body }) => created(await createMachine(tenant, body)),
  {
    idempotency: idempotent(),
  },
);
