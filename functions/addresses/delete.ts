import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { deleteAddress } from '#shared/customers/service';

export const handler = defineHandler(customerOperations.deleteAddress, async ({ tenant, params }) =>
  ok(await deleteAddress(tenant, params.id, params.addressId)),
);
