/**
 * The events credit notes emit, written in the transaction that issues the credit note (outbox),
 * beside the invoice's `invoice.updated` (shared/invoices/credits.ts).
 */
import * as z from 'zod';
import { defineEvent, writerOf } from '#shared/events/catalogue';
import { CreditNoteSchema } from './schema';

/** A credit note was issued (its number taken; the invoice's amounts moved with it). */
const creditNoteCreatedDeclaration = /* @__PURE__ */ defineEvent('credit_note.created', z.object({ credit_note: CreditNoteSchema }));

/** Every kind declared here with its payload schema: the OpenAPI document and the catalogue test read them. */
export const declarations = [creditNoteCreatedDeclaration];

export const creditNoteCreated = /* @__PURE__ */ writerOf<typeof creditNoteCreatedDeclaration>('credit_note.created');
