import { defineHandler } from '#shared/http/handler';
import { created } from '#shared/http/envelope';
import { idempotent } from '#shared/http/idempotency';
import * as shipmentOperations from '#shared/shipments/contract';
import { createReturnLabel } from '#shared/shipments/returns';

export const handler = defineHandler(
  shipmentOperations.returnLabel,
  async ({ tenant, params, body }) => created(await createReturnLabel(tenant, params.id, body)),
  { idempotency: idempotent() },
);
