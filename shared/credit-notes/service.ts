/**
 * Issuing credit notes, refunds and reading them. A credit note corrects an issued invoice that is
 * not void — paid or not — for the whole of what is still uncredited or for chosen lines,
 * quantities and amounts (credit.ts). The creates of a tenant take their gap-free numbers in turn
 * (numbering.ts): in its turn a create reads the invoice, decides what it credits, and writes the
 * credit note with its number, the invoice's credited amounts (shared/invoices/credits.ts,
 * conditional on what was read) and `credit_note.created` and `invoice.updated` in one
 * transaction. Credit notes of one invoice thus decide one after the other, each on what the
 * previous ones left; the conditions still refuse any write that raced past the queue.
 */
import type { Tenant } from '#shared/auth/principal';
import { nextId } from '#shared/db/counters';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { ConflictError, ValidationError } from '#shared/errors';
import { eventPut } from '#shared/events/outbox';
import { invoiceCreditParts, invoiceRefundParts } from '#shared/invoices/credits';
import { requireInvoice } from '#shared/invoices/repository';
import { assertCreditable } from '#shared/invoices/status';
import { MAX_CREDIT_NOTES } from '#shared/invoices/stored';
import { refundDue } from '#shared/invoices/totals';
import { formatMinor } from '#shared/money';
import { cursorEntry } from '#shared/schemas/pagination';
import { planCredit } from './credit';
import { creditNoteCreated } from './events';
import { formatCreditNoteNumber, withCreditNoteNumber } from './numbering';
import * as repo from './repository';
import type { CreditNoteCreateInput, CreditNoteListQuery, RefundCreateInput } from './schema';
import { MAX_REFUNDS, creditNoteCreation, storedCreditNote, type CreditNoteRecord } from './stored';

export type CreditNote = ReturnType<typeof storedCreditNote.view>;

export const presentCreditNote = (note: CreditNoteRecord): CreditNote => storedCreditNote.view(note);

/**
 * `POST /v1/invoices/{id}/credit-notes`. 404 for an unknown invoice; 409 for a void invoice or one
 * credited in full; 422 for more than is uncredited (naming the field). 201 with the credit note.
 */
export async function createCreditNote(
  tenant: Tenant,
  invoiceId: number,
  input: CreditNoteCreateInput,
  now = new Date(),
): Promise<CreditNote> {
  const year = now.getUTCFullYear();
  const at = now.toISOString();
  let id: number | undefined;
  return withCreditNoteNumber(
    tenant,
    year,
    async (sequence) => {
      const invoice = await requireInvoice(tenant, invoiceId, true);
      assertCreditable(invoice.invoice_number, invoice.status, invoice.total, invoice.amount_credited);
      if (invoice.credit_notes.length >= MAX_CREDIT_NOTES) {
        throw new ConflictError(`Invoice ${invoice.invoice_number} has ${MAX_CREDIT_NOTES} credit notes, the most one invoice takes`);
      }
      const plan = planCredit(invoice, input);
      // The id once the credit note is known to be issuable (ids may have gaps; numbers may not).
      id ??= await nextId(tenant, 'credit_note');
      const note: CreditNoteRecord = {
        id,
        credit_note_number: formatCreditNoteNumber(year, sequence),
        invoice_id: invoice.id,
        invoice_number: invoice.invoice_number,
        invoice_issue_date: invoice.issued_at.slice(0, 10),
        order_id: invoice.order_id,
        order_number: invoice.order_number,
        reason: input.reason,
        customer: invoice.customer,
        seller: invoice.seller,
        ...plan,
        currency: invoice.currency,
        service_date: invoice.service_date,
        amount_refunded: 0,
        refunds: [],
        issued_at: at,
        created_at: at,
        updated_at: at,
        version: 1,
      };
      const view = presentCreditNote(note);
      const credit = {
        id: note.id,
        credit_note_number: note.credit_note_number,
        total: note.total,
        issued_at: at,
        lines: note.items.map((line) => ({ position: line.invoice_position, quantity: line.quantity_credited, amount: line.amount })),
        shipping: note.shipping,
      };
      const { parts } = invoiceCreditParts(tenant, invoice, credit, now);
      return {
        result: view,
        parts: [...creditNoteCreation(tenant, note), ...parts, eventPut(tenant, creditNoteCreated, { credit_note: view }, now).item],
      };
    },
    now,
  );
}

export async function getCreditNote(tenant: Tenant, id: number): Promise<CreditNote> {
  return presentCreditNote(await repo.requireCreditNote(tenant, id));
}

/** `GET /v1/credit-notes`: newest first, by page or by cursor (`starting_after`, 422 for an id the tenant does not have). */
export async function listCreditNotes(
  tenant: Tenant,
  query: CreditNoteListQuery,
): Promise<{ items: CreditNote[]; total: number; capped: boolean; hasMore: boolean }> {
  const after = await cursorEntry(query.starting_after, 'credit note', (id) => repo.readCreditNote(tenant, id));
  const result = await repo.listCreditNotes(tenant, { page: query.page, perPage: query.per_page, after });
  return { ...result, items: result.items.map(presentCreditNote) };
}

/**
 * `POST /v1/credit-notes/{id}/refunds`: money paid back to the customer for what the credit note
 * credited of an amount already paid. At most min(what the credit note credited and has not
 * refunded, the invoice's refund_due): 409 when nothing is refundable (nothing was paid beyond what
 * is owed), 422 above it. The credit note and the invoice move in one transaction, each conditional
 * on what was read, with `invoice.updated`. 201 with the credit note.
 */
export async function recordRefund(tenant: Tenant, id: number, input: RefundCreateInput, now = new Date()): Promise<CreditNote> {
  return retryOnVersionConflict('credit note', async () => {
    const before = await repo.requireCreditNote(tenant, id, true);
    const invoice = await requireInvoice(tenant, before.invoice_id, true);
    const refundable = Math.min(before.total - before.amount_refunded, refundDue(invoice));
    if (refundable <= 0) {
      throw new ConflictError(
        `Nothing to refund on ${before.credit_note_number}: invoice ${invoice.invoice_number} has nothing paid beyond what is owed that is not refunded yet`,
      );
    }
    if (input.amount > refundable) {
      throw new ValidationError(`The refund is more than ${before.credit_note_number} leaves to refund`, [
        { field: 'amount', message: `must be at most ${formatMinor(refundable)} (credited, paid and not refunded yet)` },
      ]);
    }
    if (before.refunds.length >= MAX_REFUNDS) {
      throw new ConflictError(`Credit note ${before.credit_note_number} has ${MAX_REFUNDS} refunds, the most one takes`);
    }
    const at = now.toISOString();
    const after: CreditNoteRecord = {
      ...before,
      refunds: [
        ...before.refunds,
        {
          id: before.refunds.length + 1,
          amount: input.amount,
          method: input.method,
          reference: input.reference ?? null,
          refunded_at: input.refunded_at ?? at,
          recorded_at: at,
        },
      ],
      amount_refunded: before.amount_refunded + input.amount,
      updated_at: at,
      version: before.version + 1,
    };
    const { parts } = invoiceRefundParts(tenant, invoice, input.amount, now);
    await repo.saveRefund(tenant, before, after, parts);
    return presentCreditNote(after);
  });
}
