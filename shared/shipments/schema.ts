import * as z from 'zod';
import { OrderAddressInputSchema } from '#shared/orders/schema';
import { bodyId, lineText, queryId, timestamp } from '#shared/schemas/common';
import { cursorOnFirstPage, idCursor, paginationQuery } from '#shared/schemas/pagination';
import { responseSchema } from '#shared/schemas/response';
import { CARRIERS, CONFIGURABLE_CARRIERS } from './carriers/carrier';
import { SHIPMENT_STATUSES } from './status';
import { storedCarrierSettings, storedShipment } from './stored';

/*
 * Every top-level schema is marked pure: a handler's bundle keeps (and builds at cold start) only
 * the schemas its operation uses.
 */

/** A shipment as responses show it: derived from the stored field list (stored.ts). */
export const ShipmentSchema = /* @__PURE__ */ (() => responseSchema(storedShipment, { id: 'Shipment' }))();

/** At most this many parcels per shipment (Sendcloud's synchronous announce takes 15). */
export const MAX_PARCELS = 15;
/** At most this many shipments per order (its summary is one item). */
export const MAX_SHIPMENTS_PER_ORDER = 50;

const measure = (name: string, max: number) =>
  z
    .number({ error: `${name} must be a number` })
    .int(`${name} must be a whole number`)
    .min(1, `${name} must be at least 1`)
    .max(max, `${name} must be at most ${max}`);

const parcelInput = /* @__PURE__ */ (() =>
  z.strictObject({
    weight_g: measure('weight_g', 1_000_000).meta({ description: 'Grams', example: 1320 }),
    length_mm: measure('length_mm', 10_000).meta({ example: 300 }),
    width_mm: measure('width_mm', 10_000).meta({ example: 210 }),
    height_mm: measure('height_mm', 10_000).meta({ example: 50 }),
  }))();

const itemInput = /* @__PURE__ */ (() =>
  z.strictObject({
    line_id: z.number().int().min(1).max(1000).meta({ description: "The order line's id" }),
    quantity: z.number().int().min(1).max(1_000_000_000),
  }))();

const carrierName = /* @__PURE__ */ (() => z.enum(CARRIERS, { error: `must be one of ${CARRIERS.join(', ')}` }))();

export const ShipmentCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      order_id: bodyId('The order to ship'),
      carrier: carrierName.meta({ description: 'Test mode: whatever is named, the sandbox carrier serves it' }),
      service: lineText(100)
        .min(1, 'must not be empty')
        .meta({ description: "The carrier's shipping option (Sendcloud: its shipping_option_code)", example: 'postnl:standard' }),
      parcels: z.array(parcelInput).min(1, 'at least one parcel').max(MAX_PARCELS, `at most ${MAX_PARCELS} parcels`),
      address_id: bodyId("One of the order customer's addresses; default: the order's shipping address").optional(),
      items: z
        .array(itemInput)
        .min(1, 'at least one item')
        .max(1000)
        .optional()
        .meta({ description: 'A partial shipment: these quantities of these lines; default: everything not shipped yet' }),
      partial: z
        .boolean()
        .optional()
        .default(false)
        .meta({ description: 'Ship before production is done: allowed for an order in_production' }),
    })
    .meta({
      id: 'ShipmentCreate',
      example: {
        order_id: 42,
        carrier: 'sendcloud',
        service: 'postnl:standard',
        parcels: [{ weight_g: 1320, length_mm: 300, width_mm: 210, height_mm: 50 }],
      },
    }))();

const status = /* @__PURE__ */ (() => z.enum(SHIPMENT_STATUSES, { error: `must be one of ${SHIPMENT_STATUSES.join(', ')}` }))();

export const ShipmentListQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      ...paginationQuery,
      order_id: queryId('order_id').optional().meta({ description: "One order's shipments" }),
      status: status.optional(),
      carrier: carrierName.optional(),
      starting_after: idCursor('shipments'),
    })
    .superRefine(cursorOnFirstPage))();

export const OrderShipmentsQuerySchema = /* @__PURE__ */ (() =>
  z
    .strictObject({ ...paginationQuery, status: status.optional(), carrier: carrierName.optional(), starting_after: idCursor('shipments') })
    .superRefine(cursorOnFirstPage))();

export const ShipmentSimulateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      status: status.meta({ description: 'The status the sandbox carrier reports next' }),
      parcel: z
        .number()
        .int('must be a parcel number from 1')
        .min(1, 'must be a parcel number from 1')
        .max(MAX_PARCELS, `must be at most ${MAX_PARCELS}`)
        .optional()
        .meta({ description: 'Which parcel reports it (1-based); default: every parcel of the shipment' }),
      return: z.boolean().optional().meta({ description: "The shipment's return parcel reports it (its return label must exist)" }),
      location: lineText(200).nullable().optional(),
      occurred_at: z.iso
        .datetime({ offset: true, error: 'must be an ISO 8601 time' })
        .optional()
        .meta({ description: 'When it happened (default: now); an older time than the last report does not move the shipment' }),
    })
    .meta({ id: 'ShipmentSimulate', example: { status: 'in_transit', location: 'Hamburg' } }))();

export const LabelQuerySchema = /* @__PURE__ */ (() =>
  z.strictObject({
    parcel: z
      .string()
      .regex(/^[1-9]\d?$/, 'parcel must be a parcel number from 1')
      .transform(Number)
      .optional()
      .default(1)
      .meta({ description: 'Which parcel (1-based; default 1)' }),
    format: z
      .enum(['pdf', 'url'], { error: 'must be pdf or url' })
      .optional()
      .default('pdf')
      .meta({ description: '`pdf`: the bytes; `url`: JSON with a presigned URL valid 15 minutes' }),
  }))();

export const ReturnLabelCreateSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      service: lineText(100)
        .min(1, 'must not be empty')
        .meta({ description: "The carrier's return shipping option (Sendcloud: its shipping_option_code)", example: 'dpd:return/return' }),
      parcel: parcelInput
        .optional()
        .meta({ description: "The return parcel (grams and millimetres); default: the shipment's first parcel" }),
    })
    .meta({ id: 'ReturnLabelCreate', example: { service: 'dpd:return/return' } }))();

export const DeliveryNoteQuerySchema = /* @__PURE__ */ (() =>
  z.strictObject({
    format: z
      .enum(['pdf', 'url'], { error: 'must be pdf or url' })
      .optional()
      .default('pdf')
      .meta({ description: '`pdf`: the bytes; `url`: JSON with a presigned URL valid 15 minutes' }),
  }))();

export const LabelUrlSchema = /* @__PURE__ */ (() =>
  z
    .object({ url: z.string(), expires_at: timestamp, filename: z.string().meta({ example: 'shipment-42-label-1.pdf' }) })
    .meta({ id: 'ShipmentLabelUrl' }))();

export const TrackingSchema = /* @__PURE__ */ (() =>
  z
    .object({
      shipment_id: z.number().int(),
      status: status,
      tracking_number: z.string().nullable(),
      tracking_url: z.string().nullable(),
      events: z.array(
        z.object({
          status: status,
          description: z.string(),
          location: z.string().nullable(),
          occurred_at: timestamp,
        }),
      ),
      refreshed_at: timestamp.nullable().meta({ description: 'When the carrier was last asked (cached a few minutes)' }),
    })
    .meta({ id: 'ShipmentTracking' }))();

// ---- Carriers ---------------------------------------------------------------------------------

export const carrierPath = /* @__PURE__ */ (() =>
  z.object({
    carrier: z
      .enum(CONFIGURABLE_CARRIERS)
      .meta({ description: 'A carrier that takes credentials', param: { name: 'carrier', in: 'path' } }),
  }))();

export const CarrierSettingsSchema = /* @__PURE__ */ (() =>
  responseSchema(storedCarrierSettings, { id: 'CarrierSettings' }).extend({
    webhook_url: z.string().meta({
      description:
        "Give this to the carrier as its webhook URL: callbacks are checked with the signature of the webhook signature key (or the secret key's)",
    }),
  }))();

export const CarrierSettingsInputSchema = /* @__PURE__ */ (() =>
  z
    .strictObject({
      public_key: lineText(200).min(1, 'must not be empty'),
      secret_key: lineText(200).min(8, 'must be at least 8 characters'),
      webhook_signature_key: lineText(200)
        .min(8, 'must be at least 8 characters')
        .optional()
        .meta({
          description:
            "The key the carrier signs its callbacks with, when the integration has one of its own (Sendcloud's Webhook Signature Key); " +
            'without it, callbacks are checked with the secret key. Stored encrypted, never shown',
        }),
      sender_address: OrderAddressInputSchema.nullable().optional().meta({
        description: "The sender on live labels; without it the account company's address (PUT /v1/account), else sender_address_id",
      }),
      sender_address_id: z.int().min(1).max(2_147_483_647).nullable().optional().meta({
        description:
          "The id of a sender address configured in Sendcloud's panel (Settings → Addresses), used when neither sender_address nor the account company's address is set",
      }),
      base_url: z
        .url({ error: 'must be a URL' })
        .max(300)
        .optional()
        .meta({ description: 'Only under the local runtime (a fake carrier on 127.0.0.1); refused elsewhere' }),
    })
    .meta({
      id: 'CarrierSettingsInput',
      description: 'The secret key (and the webhook signature key) are stored encrypted and never shown again (only its last 4 characters)',
      example: { public_key: 'your-public-key', secret_key: 'your-secret-key' },
    }))();

export type ShipmentCreate = z.output<typeof ShipmentCreateSchema>;
export type ShipmentListQuery = z.output<typeof ShipmentListQuerySchema>;
export type OrderShipmentsQuery = z.output<typeof OrderShipmentsQuerySchema>;
export type ShipmentSimulate = z.output<typeof ShipmentSimulateSchema>;
export type ReturnLabelCreate = z.output<typeof ReturnLabelCreateSchema>;
export type CarrierSettingsInput = z.output<typeof CarrierSettingsInputSchema>;
export type Shipment = z.output<typeof ShipmentSchema>;
