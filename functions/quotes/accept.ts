import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import { acceptQuote } from '#shared/quotes/accept';
import * as quoteOperations from '#shared/quotes/contract';

export const handler = defineHandler(quoteOperations.accept, async ({ tenant, params }) => created(await acceptQuote(tenant, params.id)), {
  idempotency: idempotent(),
});
