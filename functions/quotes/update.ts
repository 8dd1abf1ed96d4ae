import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { etagHeader, parseIfMatch } from '#shared/orders/preconditions';
import * as quoteOperations from '#shared/quotes/contract';
import { updateQuote } from '#shared/quotes/service';

export const handler = defineHandler(quoteOperations.update, async ({ tenant, params, body, headers }) => {
  const quote = await updateQuote(tenant, params.id, body, parseIfMatch(headers['if-match']));
  return ok(quote, etagHeader(quote));
});
