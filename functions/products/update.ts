import * as productOperations from '#shared/products/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { updateProduct } from '#shared/products/service';

export const handler = defineHandler(productOperations.update, async ({ tenant, params, body }) =>
  ok(await updateProduct(tenant, params.id, body)),
);
