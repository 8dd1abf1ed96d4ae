import * as productOperations from '#shared/products/contract';
import { defineHandler } from '#shared/http/handler';
import { storefrontQuota } from '#shared/limits/quota';
import { idempotent } from '#shared/http/idempotency';
import { ok } from '#shared/http/envelope';
import { calculatePrice } from '#shared/products/service';

export const handler = defineHandler(
  productOperations.calculate,
  async ({ tenant, principal, params, body }) => ok(await calculatePrice(tenant, principal, params.id, body)),
  { idempotency: idempotent(), quota: storefrontQuota },
);
