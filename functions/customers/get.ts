import * as customerOperations from '#shared/customers/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { getCustomer } from '#shared/customers/service';

export const handler = defineHandler(customerOperations.get, async ({ tenant, params }) => ok(await getCustomer(tenant, params.id)));
