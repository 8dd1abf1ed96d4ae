import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import * as shipmentOperations from '#shared/shipments/contract';
import { getShipment } from '#shared/shipments/service';

export const handler = defineHandler(shipmentOperations.get, async ({ tenant, params }) => ok(await getShipment(tenant, params.id)));
