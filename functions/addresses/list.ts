import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { listed, pagination } from '#shared/http/envelope';
import { listAddresses } from '#shared/customers/service';
import { MAX_ADDRESSES_PER_CUSTOMER } from '#shared/customers/repository';

/** A customer has at most 25 addresses, so the list is always one page. */
export const handler = defineHandler(customerOperations.listAddresses, async ({ tenant, params }) => {
  const addresses = await listAddresses(tenant, params.id);
  return listed(addresses, pagination(1, MAX_ADDRESSES_PER_CUSTOMER, addresses.length));
});
