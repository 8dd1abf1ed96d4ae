import * as legacyProductOperations from '#shared/legacy-products/contract';
import { defineHandler } from '#shared/http/handler';
import { storefrontQuota } from '#shared/limits/quota';
import { idempotent } from '#shared/http/idempotency';
import { ok } from '#shared/http/envelope';
import { calculateLegacyPrice } from '#shared/legacy-products/service';

export const handler = defineHandler(
  legacyProductOperations.calculate,
  async ({ tenant, params, body }) => ok(await calculateLegacyPrice(tenant, params.id, body)),
  { idempotency: idempotent(), quota: storefrontQuota },
);
