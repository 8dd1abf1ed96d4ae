import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import { created } from '#shared/http/envelope';
import { changeRecorder } from '#shared/http/invocation';
import { createCustomer } from '#shared/customers/service';

export const handler = defineHandler(
  customerOperations.create,
  async ({ tenant, body, event }) => created(await createCustomer(tenant, body, changeRecorder(event))),
  { idempotency: idempotent() },
);
