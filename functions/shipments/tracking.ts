import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as shipmentOperations from '#shared/shipments/contract';
import { getTracking } from '#shared/shipments/service';

export const handler = defineHandler(shipmentOperations.tracking, async ({ tenant, params }) => ok(await getTracking(tenant, params.id)));
