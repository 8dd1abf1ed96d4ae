/**
 * The events quotes emit, each carrying the quote as the API shows it (`data.quote`), written in
 * the transaction of the change (outbox). Accepting also writes the new order's `order.created`.
 */
import * as z from 'zod';
import { defineEvent, writerOf } from '#shared/events/catalogue';
import { QuoteSchema } from './schema';

const payload = /* @__PURE__ */ z.object({ quote: QuoteSchema });

const quoteCreatedDeclaration = /* @__PURE__ */ defineEvent('quote.created', payload);
/** Accepted into an order: `quote.order_id` names it (the order's own event is `order.created`). */
const quoteAcceptedDeclaration = /* @__PURE__ */ defineEvent('quote.accepted', payload);
const quoteRejectedDeclaration = /* @__PURE__ */ defineEvent('quote.rejected', payload);

/** Every kind declared here with its payload schema: the OpenAPI document and the catalogue test read them. */
export const declarations = [quoteCreatedDeclaration, quoteAcceptedDeclaration, quoteRejectedDeclaration];

/** What services write with (`eventPut`): the kinds, typed by their declarations, without their schemas. */
export const quoteCreated = /* @__PURE__ */ writerOf<typeof quoteCreatedDeclaration>('quote.created');
export const quoteAccepted = /* @__PURE__ */ writerOf<typeof quoteAcceptedDeclaration>('quote.accepted');
export const quoteRejected = /* @__PURE__ */ writerOf<typeof quoteRejectedDeclaration>('quote.rejected');
