import * as creditNoteOperations from '#shared/credit-notes/contract';
import { recordRefund } from '#shared/credit-notes/service';
import { created } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';

export const handler = defineHandler(
  creditNoteOperations.refundCreditNote,
  async ({ tenant, params, body }) => created(await recordRefund(tenant, params.id, body)),
  { idempotency: idempotent() },
);
