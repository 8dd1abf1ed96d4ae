import * as fileOperations from '#shared/files/contract';
import { startUpload } from '#shared/fulfilment/order-files';
import { created } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';

export const handler = defineHandler(
  fileOperations.createUpload,
  async ({ tenant, principal, body }) => created(await startUpload(tenant, principal, body)),
  { idempotency: idempotent() },
);
