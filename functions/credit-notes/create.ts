import * as creditNoteOperations from '#shared/credit-notes/contract';
import { createCreditNote } from '#shared/credit-notes/service';
import { created } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';

export const handler = defineHandler(
  creditNoteOperations.createCreditNote,
  async ({ tenant, params, body }) => created(await createCreditNote(tenant, params.id, body)),
  { idempotency: idempotent() },
);
