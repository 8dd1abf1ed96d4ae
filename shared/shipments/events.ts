/**
 * The events shipments emit, each with `data.shipment` (the shipment as the API shows it), written
 * in the transaction of the change: `shipment.delivered` when it is delivered (every parcel),
 * `shipment.returned` when its return has arrived back at the shop (once). The order's own milestones
 * (`order.shipped`, `order.completed`, with `order.updated`) are the orders' events, written by
 * the same transaction (milestones.ts decides when).
 */
import * as z from 'zod';
import { defineEvent, writerOf } from '#shared/events/catalogue';
import { ShipmentSchema } from './schema';

const payload = /* @__PURE__ */ z.object({ shipment: ShipmentSchema });

const shipmentDeliveredDeclaration = /* @__PURE__ */ defineEvent('shipment.delivered', payload);
const shipmentReturnedDeclaration = /* @__PURE__ */ defineEvent('shipment.returned', payload);

/** Every kind declared here with its payload schema: the OpenAPI document and the catalogue test read them. */
export const declarations = [shipmentDeliveredDeclaration, shipmentReturnedDeclaration];

/** What services write with (`eventPut`): the kind, typed by its declaration, without its schema. */
export const shipmentDelivered = /* @__PURE__ */ writerOf<typeof shipmentDeliveredDeclaration>('shipment.delivered');
export const shipmentReturned = /* @__PURE__ */ writerOf<typeof shipmentReturnedDeclaration>('shipment.returned');
