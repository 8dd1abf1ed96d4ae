import * as fileOperations from '#shared/files/contract';
import { completeUpload } from '#shared/files/service';
import { ok } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';

export const handler = defineHandler(
  fileOperations.complete,
  async ({ tenant, principal, params }) => ok(await completeUpload(tenant, principal, params.id)),
  { idempotency: idempotent() },
);
