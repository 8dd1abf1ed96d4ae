import * as fileOperations from '#shared/files/contract';
import { completeUpload } from '#shared/files/service';
import { accepted, ok } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';

/** 200 with the ready file; 202 with it `processing` while the file worker verifies a large upload. */
export const handler = defineHandler(
  fileOperations.complete,
  async ({ tenant, principal, params }) => {
    const { file, verifying } = await completeUpload(tenant, principal, params.id);
    return verifying ? accepted(file) : ok(file);
  },
  { idempotency: idempotent() },
);
