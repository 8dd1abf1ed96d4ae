import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import { created } from '#shared/http/envelope';
import { createCustomer } from '#shared/customers/service';

export const handler = defineHandler(customerOperations.create, async ({ tenant, body }) => created(await createCustomer(tenant, body)), {
  idempotency: idempotent(),
});
