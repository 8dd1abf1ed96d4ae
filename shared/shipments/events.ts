/**
 * The event shipments emit: `shipment.delivered` (`data.shipment`, the shipment as the API shows
 * it), written in the transaction of the change that delivers it. The order's own milestones
 * (`order.shipped`, `order.completed`, with `order.updated`) are the orders' events, written by
 * the same transaction (milestones.ts decides when).
 */
import * as z from 'zod';
import { defineEvent, writerOf } from '#shared/events/catalogue';
import { ShipmentSchema } from './schema';

const payload = /* @__PURE__ */ z.object({ shipment: ShipmentSchema });

const shipmentDeliveredDeclaration = /* @__PURE__ */ defineEvent('shipment.delivered', payload);

/** Every kind declared here with its payload schema: the OpenAPI document and the catalogue test read them. */
export const declarations = [shipmentDeliveredDeclaration];

/** What services write with (`eventPut`): the kind, typed by its declaration, without its schema. */
export const shipmentDelivered = /* @__PURE__ */ writerOf<typeof shipmentDeliveredDeclaration>('shipment.delivered');
