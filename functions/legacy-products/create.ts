import * as legacyProductOperations from '#shared/legacy-products/contract';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import { created } from '#shared/http/envelope';
import { createLegacyProduct } from '#shared/legacy-products/service';

export const handler = defineHandler(
  legacyProductOperations.create,
  async ({ tenant, body }) => created(await createLegacyProduct(tenant, body)),
  { idempotency: idempotent() },
);
