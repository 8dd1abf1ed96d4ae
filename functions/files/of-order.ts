import * as fileOperations from '#shared/files/contract';
import { orderFiles } from '#shared/fulfilment/order-files';
import { listed, pagination } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';

/** An order names at most 50 files: one page. */
export const handler = defineHandler(fileOperations.ofOrder, async ({ tenant, principal, params }) => {
  const files = await orderFiles(tenant, principal, params.id);
  return listed(files, pagination(1, Math.max(files.length, 1), files.length));
});
