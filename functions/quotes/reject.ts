import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as quoteOperations from '#shared/quotes/contract';
import { rejectQuote } from '#shared/quotes/service';

export const handler = defineHandler(
  quoteOperations.reject,
  async ({ tenant, params, body }) => ok(await rejectQuote(tenant, params.id, body.reason)),
  { idempotency: idempotent() },
);
