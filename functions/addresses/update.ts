import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { updateAddress } from '#shared/customers/service';

export const handler = defineHandler(customerOperations.updateAddress, async ({ tenant, params, body }) =>
  ok(await updateAddress(tenant, params.id, params.addressId, body)),
);
