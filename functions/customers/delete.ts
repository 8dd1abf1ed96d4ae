import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { deleteCustomer } from '#shared/customers/service';

export const handler = defineHandler(customerOperations.delete, async ({ tenant, params }) => ok(await deleteCustomer(tenant, params.id)));
