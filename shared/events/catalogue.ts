/**
 * The event catalogue: every kind the spec lists (the union of its overview and its webhook
 * guide), the resource each kind carries in `data`, and `defineEvent`, with which a resource
 * declares its kinds together with their payload schemas (`shared/<resource>/events.ts`, e.g.
 * `defineEvent('order.created', z.object({ order: OrderSchema }))`). The outbox writer
 * (outbox.ts) takes such a definition, so a payload that does not match its kind does not
 * compile; the OpenAPI document and docs/events.md show each payload.
 *
 * Kinds whose resource is not built yet can be subscribed to and sent as test events, but nothing
 * emits them until their resource declares them (today every kind is declared).
 *
 * This module is plain data (zod only as types): the admin panel bundles it for its event list.
 */
import type * as z from 'zod';

/** Each kind and the resource type under which its payload carries the resource (`data.order`…). */
export const resourceTypeOf = {
  'order.created': 'order',
  'order.updated': 'order',
  'order.completed': 'order',
  'order.cancelled': 'order',
  'order.shipped': 'order',
  'customer.created': 'customer',
  'customer.updated': 'customer',
  'invoice.created': 'invoice',
  'invoice.updated': 'invoice',
  'invoice.sent': 'invoice',
  'invoice.paid': 'invoice',
  'credit_note.created': 'credit_note',
  'quote.created': 'quote',
  'quote.accepted': 'quote',
  'quote.rejected': 'quote',
  'production.started': 'production_job',
  'production.completed': 'production_job',
  'production.job.created': 'production_job',
  'production.job.completed': 'production_job',
  'shipment.delivered': 'shipment',
  'shipment.returned': 'shipment',
  'stock.low': 'product',
  'proof.created': 'proof',
  'proof.approved': 'proof',
  'proof.changes_requested': 'proof',
} as const;

export type EventKind = keyof typeof resourceTypeOf;

export const eventKinds = /* @__PURE__ */ Object.keys(resourceTypeOf) as [EventKind, ...EventKind[]];

export const isEventKind = (value: string): value is EventKind => Object.hasOwn(resourceTypeOf, value);

/** A kind with the schema of its `data`: an object holding the resource under its type name (and siblings, if any). */
export interface EventDefinition<K extends EventKind = EventKind, S extends z.ZodType = z.ZodType> {
  kind: K;
  payload: S;
}

type PayloadShape<K extends EventKind> = { [P in (typeof resourceTypeOf)[K]]: z.ZodType };

/** Declares `kind` with the schema of its payload, which must carry the kind's resource under its type name. */
export const defineEvent = <K extends EventKind, S extends z.ZodObject<PayloadShape<K> & z.ZodRawShape>>(
  kind: K,
  payload: S,
): EventDefinition<K, S> => ({ kind, payload });

/**
 * The handle services write a declared kind with (shared/events/outbox.ts `eventPut`): the kind
 * only, typed by its declaration, so `data` is still checked against the payload schema when
 * compiling while the schema itself — built for the OpenAPI document — stays out of the handler
 * bundles (a declaration no bundle references is dropped, with the response schemas it names).
 */
export const writerOf = <D extends EventDefinition>(kind: D['kind']): D => ({ kind }) as D;
