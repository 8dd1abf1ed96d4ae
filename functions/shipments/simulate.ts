import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as shipmentOperations from '#shared/shipments/contract';
import { simulateShipment } from '#shared/shipments/service';

export const handler = defineHandler(
  shipmentOperations.simulate,
  async ({ tenant, params, body }) => ok(await simulateShipment(tenant, params.id, body)),
  { idempotency: idempotent() },
);
