import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import { etagHeader } from '#shared/orders/preconditions';
import * as quoteOperations from '#shared/quotes/contract';
import { createQuote } from '#shared/quotes/service';

export const handler = defineHandler(
  quoteOperations.create,
  async ({ tenant, body }) => {
    const quote = await createQuote(tenant, body);
    return created(quote, etagHeader(quote));
  },
  { idempotency: idempotent() },
);
