import * as authOperations from '#shared/customer-auth/contract';
import { requirePublishedKeys } from '#shared/customer-auth/published-keys';
import { ok } from '#shared/http/envelope';
import { definePublicHandler } from '#shared/http/public-handler';

/** The JWKS itself (no envelope), cacheable for a few minutes: a rotation publishes the new key beside the old one. */
export const handler = definePublicHandler(authOperations.jwks, async () => ({
  ...ok(null),
  body: await requirePublishedKeys(),
  headers: { 'Cache-Control': 'public, max-age=300' },
}));
