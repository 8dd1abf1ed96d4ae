/**
 * Every declared event with its payload schema, gathered from the resources' events modules, for
 * the OpenAPI document (a component per kind) and the catalogue test. Kinds whose resource is not
 * built yet are not declared, so not emitted yet.
 */
import * as creditNoteEvents from '#shared/credit-notes/events';
import * as customerEvents from '#shared/customers/events';
import { eventKinds, type EventDefinition } from '#shared/events/catalogue';
import * as invoiceEvents from '#shared/invoices/events';
import * as orderEvents from '#shared/orders/events';
import * as productionEvents from '#shared/production/events';
import * as productEvents from '#shared/products/events';
import * as proofEvents from '#shared/proofs/events';
import * as quoteEvents from '#shared/quotes/events';
import * as shipmentEvents from '#shared/shipments/events';

const modules = [
  customerEvents,
  orderEvents,
  productEvents,
  productionEvents,
  invoiceEvents,
  creditNoteEvents,
  quoteEvents,
  shipmentEvents,
  proofEvents,
];

/** Each resource's `declarations` (the writers services use carry no schema). */
export const declaredEvents = modules.flatMap(
  (module) => module.declarations as readonly (EventDefinition & { payload: { shape: Record<string, unknown> } })[],
);

/** One declaration per kind, as a union (`EventDefinition<'order.created', …>` | …): the tests type stored events by it. */
export type DeclaredEvent = (typeof modules)[number]['declarations'][number];

export const undeclaredKinds = eventKinds.filter((kind) => !declaredEvents.some((definition) => definition.kind === kind));
