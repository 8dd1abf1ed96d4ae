import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { changeRecorder } from '#shared/http/invocation';
import { updateCustomer } from '#shared/customers/service';

export const handler = defineHandler(customerOperations.update, async ({ tenant, params, body, event }) =>
  ok(await updateCustomer(tenant, params.id, body, changeRecorder(event))),
);
