import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as shipmentOperations from '#shared/shipments/contract';
import { createShipment } from '#shared/shipments/creation';

export const handler = defineHandler(shipmentOperations.create, async ({ tenant, body }) => created(await createShipment(tenant, body)), {
  idempotency: idempotent(),
});
