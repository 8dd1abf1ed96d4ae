import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import { created } from '#shared/http/envelope';
import { createAddress } from '#shared/customers/service';

export const handler = defineHandler(
  customerOperations.createAddress,
  async ({ tenant, params, body }) => created(await createAddress(tenant, params.id, body)),
  { idempotency: idempotent() },
);
