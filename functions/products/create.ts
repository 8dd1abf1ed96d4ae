import * as productOperations from '#shared/products/contract';
import { defineHandler } from '#shared/http/handler';
import { idempotent } from '#shared/http/idempotency';
import { created } from '#shared/http/envelope';
import { createProduct } from '#shared/products/service';

export const handler = defineHandler(productOperations.create, async ({ tenant, body }) => created(await createProduct(tenant, body)), {
  idempotency: idempotent(),
});
