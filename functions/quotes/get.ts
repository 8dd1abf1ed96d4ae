import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { etagHeader } from '#shared/orders/preconditions';
import * as quoteOperations from '#shared/quotes/contract';
import { getQuote } from '#shared/quotes/service';

export const handler = defineHandler(quoteOperations.get, async ({ tenant, params }) => {
  const quote = await getQuote(tenant, params.id);
  return ok(quote, etagHeader(quote));
});
