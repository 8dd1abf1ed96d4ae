import * as productOperations from '#shared/products/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { deleteProduct } from '#shared/products/service';

export const handler = defineHandler(productOperations.delete, async ({ tenant, params }) => ok(await deleteProduct(tenant, params.id)));
