/**
 * The shipment and carrier operations. Handlers import this module as a namespace
 * (`import * as shipmentOperations`) and the schemas are marked pure, so each bundle keeps — and
 * builds at cold start — only its own operation's.
 */
import * as z from 'zod';
import { idPath } from '#shared/schemas/common';
import type { Operation } from '#shared/schemas/operation';
import {
  carriersConfigure,
  carriersList,
  carriersSendcloudWebhook,
  ordersShipments,
  shipmentsCancel,
  shipmentsCreate,
  shipmentsDeliveryNote,
  shipmentsGet,
  shipmentsLabel,
  shipmentsList,
  shipmentsReturnLabel,
  shipmentsReturnLabelPdf,
  shipmentsSimulate,
  shipmentsTracking,
} from '#shared/routes';
import {
  CarrierSettingsInputSchema,
  CarrierSettingsSchema,
  DeliveryNoteQuerySchema,
  LabelQuerySchema,
  LabelUrlSchema,
  OrderShipmentsQuerySchema,
  ReturnLabelCreateSchema,
  ShipmentCreateSchema,
  ShipmentListQuerySchema,
  ShipmentSchema,
  ShipmentSimulateSchema,
  TrackingSchema,
  carrierPath,
} from './schema';

const shipmentPath = /* @__PURE__ */ idPath('Shipment id');

export const list = { route: shipmentsList, query: ShipmentListQuerySchema, list: true, errors: [404] } satisfies Operation;
export const create = { route: shipmentsCreate, body: ShipmentCreateSchema, status: 201, errors: [404, 409, 502] } satisfies Operation;
export const get = { route: shipmentsGet, params: shipmentPath, errors: [404] } satisfies Operation;
export const orderShipments = {
  route: ordersShipments,
  params: /* @__PURE__ */ idPath('Order id'),
  query: OrderShipmentsQuerySchema,
  list: true,
  errors: [404],
} satisfies Operation;
export const label = {
  route: shipmentsLabel,
  params: shipmentPath,
  query: LabelQuerySchema,
  documents: {
    contentTypes: [{ type: 'application/pdf', binary: true }],
    description:
      'The label PDF of one parcel with `Content-Disposition: inline; filename="shipment-….pdf"` when the first Accept type is application/pdf; with `format=url`, JSON with a presigned URL valid 15 minutes.',
    redirects: 'Without `Accept: application/pdf`: a redirect to the presigned URL.',
  },
  errors: [404, 502],
} satisfies Operation;
export const deliveryNote = {
  route: shipmentsDeliveryNote,
  params: shipmentPath,
  query: DeliveryNoteQuerySchema,
  documents: {
    contentTypes: [{ type: 'application/pdf', binary: true }],
    description:
      'The delivery note PDF (the shop\'s company block, order number, recipient, lines and quantities, customs lines outside the EU customs area) with `Content-Disposition: inline; filename="delivery-note-….pdf"` when the first Accept type is application/pdf; with `format=url`, JSON with a presigned URL valid 15 minutes.',
    redirects: 'Without `Accept: application/pdf`: a redirect to the presigned URL.',
  },
  errors: [404],
} satisfies Operation;
export const tracking = { route: shipmentsTracking, params: shipmentPath, errors: [404] } satisfies Operation;
export const cancel = { route: shipmentsCancel, params: shipmentPath, errors: [404, 409, 502] } satisfies Operation;
export const returnLabel = {
  route: shipmentsReturnLabel,
  params: shipmentPath,
  body: ReturnLabelCreateSchema,
  status: 201,
  errors: [404, 409, 502],
} satisfies Operation;
export const returnLabelPdf = {
  route: shipmentsReturnLabelPdf,
  params: shipmentPath,
  query: DeliveryNoteQuerySchema,
  documents: {
    contentTypes: [{ type: 'application/pdf', binary: true }],
    description:
      'The return label PDF with `Content-Disposition: inline; filename="shipment-…-return-label.pdf"` when the first Accept type is application/pdf; with `format=url`, JSON with a presigned URL valid 15 minutes. 404 while the shipment has no return label (POST /v1/shipments/{id}/return-label makes it).',
    redirects: 'Without `Accept: application/pdf`: a redirect to the presigned URL.',
  },
  errors: [404, 502],
} satisfies Operation;
export const simulate = {
  route: shipmentsSimulate,
  params: shipmentPath,
  body: ShipmentSimulateSchema,
  errors: [403, 404],
} satisfies Operation;
export const carriers = { route: carriersList, list: true } satisfies Operation;
export const configure = {
  route: carriersConfigure,
  params: carrierPath,
  body: CarrierSettingsInputSchema,
  errors: [404],
} satisfies Operation;
export const sendcloudWebhook = {
  route: carriersSendcloudWebhook,
  params: /* @__PURE__ */ (() =>
    z.object({
      token: z
        .string()
        .min(1)
        .max(200)
        .meta({
          description: 'The account token of the webhook_url that PUT /v1/carriers/sendcloud answers',
          param: { name: 'token', in: 'path' },
        }),
    }))(),
  rawBody: {
    contentType: 'application/json',
    schema: /* @__PURE__ */ (() =>
      z
        .object({ action: z.string(), timestamp: z.number(), parcel: z.object({}).loose() })
        .loose()
        .meta({ id: 'SendcloudCallback', description: "Sendcloud's parcel_status_changed call, signed with Sendcloud-Signature" }))(),
    description: "Verified with the `Sendcloud-Signature` header: hex HMAC-SHA256 of the raw body under the account's Sendcloud secret key",
  },
  headers: /* @__PURE__ */ (() =>
    z.object({
      'Sendcloud-Signature': z.string().meta({
        description: "Lowercase hex HMAC-SHA256 of the raw body under the account's Sendcloud secret; missing or wrong: 401.",
      }),
    }))(),
  errors: [401],
} satisfies Operation;

/**
 * What each operation answers (its `data`; an element of it for a list), for the OpenAPI document:
 * kept apart from the operations, so handler bundles leave the response schemas out.
 */
export const responses = {
  list: ShipmentSchema,
  create: ShipmentSchema,
  get: ShipmentSchema,
  orderShipments: ShipmentSchema,
  label: LabelUrlSchema,
  deliveryNote: LabelUrlSchema,
  tracking: TrackingSchema,
  cancel: ShipmentSchema,
  returnLabel: ShipmentSchema,
  returnLabelPdf: LabelUrlSchema,
  simulate: ShipmentSchema,
  carriers: CarrierSettingsSchema,
  configure: CarrierSettingsSchema,
  sendcloudWebhook: /* @__PURE__ */ (() =>
    z
      .object({
        received: z.literal(true),
        shipment_id: z.number().int().nullable(),
        outcome: z.enum(['applied', 'recorded', 'duplicate', 'stale', 'ignored']),
      })
      .meta({ id: 'CarrierCallbackReceipt' }))(),
} satisfies Record<string, z.ZodType>;
