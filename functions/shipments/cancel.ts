import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as shipmentOperations from '#shared/shipments/contract';
import { cancelShipment } from '#shared/shipments/service';

export const handler = defineHandler(shipmentOperations.cancel, async ({ tenant, params }) => ok(await cancelShipment(tenant, params.id)), {
  idempotency: idempotent(),
});
