/** No Idempotency-Key: a replay would answer stored tokens (kept at rest in the clear) — a repeated call is a new call. */
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as authOperations from '#shared/customer-auth/contract';
import { refresh } from '#shared/customer-auth/sessions';
import { storefrontQuota } from '#shared/limits/quota';

export const handler = defineHandler(
  authOperations.refresh,
  async ({ tenant, body }) => ok(await refresh(tenant, body.refresh_token), { 'Cache-Control': 'no-store' }),
  { quota: storefrontQuota },
);
