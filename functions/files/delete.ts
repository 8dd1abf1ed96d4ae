import * as fileOperations from '#shared/files/contract';
import { deleteFile } from '#shared/fulfilment/order-files';
import { ok } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';

export const handler = defineHandler(fileOperations.remove, async ({ tenant, principal, params }) =>
  ok(await deleteFile(tenant, principal, params.id)),
);
