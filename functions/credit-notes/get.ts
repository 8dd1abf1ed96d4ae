import * as creditNoteOperations from '#shared/credit-notes/contract';
import { getCreditNote } from '#shared/credit-notes/service';
import { ok } from '#shared/http/envelope';
import { defineHandler } from '#shared/http/handler';

export const handler = defineHandler(creditNoteOperations.getCreditNote, async ({ tenant, params }) =>
  ok(await getCreditNote(tenant, params.id)),
);
