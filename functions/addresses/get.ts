import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { getAddress } from '#shared/customers/service';

export const handler = defineHandler(customerOperations.getAddress, async ({ tenant, params }) =>
  ok(await getAddress(tenant, params.id, params.addressId)),
);
