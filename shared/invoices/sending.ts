/**
 * `POST /v1/invoices/{id}/send`: emails the invoice — its PDF (ZUGFeRD / Factur-X) and its
 * XRechnung XML (CII) — to the customer's email (or `to`), then marks it sent. The first sending
 * sets `sent_at`, moves an open invoice to `sent` and writes `invoice.sent`; sending again sends
 * the mail and records `last_sent_at`, without a second event.
 *
 * The mail goes out before the mark is written: if the mark then fails, the customer has the mail
 * and the invoice still says unsent, and sending again is safe — the opposite order could mark an
 * invoice sent that no one received.
 */
import type { Tenant } from '#shared/auth/principal';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { eventPut } from '#shared/events/outbox';
import { sendMail } from '#shared/mail/send';
import { formatMinor } from '#shared/money';
import { invoiceDocument } from './documents';
import { invoiceSent } from './events';
import { present, type Invoice } from './present';
import * as repo from './repository';
import { assertSendable } from './status';
import type { InvoiceRecord } from './stored';

function messageText(invoice: InvoiceRecord): string {
  const { seller } = invoice;
  return [
    `Dear ${invoice.customer.name},`,
    '',
    `please find attached invoice ${invoice.invoice_number} of ${invoice.issued_at.slice(0, 10)} ` +
      `over ${formatMinor(invoice.total)} ${invoice.currency}, due on ${invoice.due_date}.`,
    ...(seller.iban
      ? [
          `Please transfer the amount to IBAN ${seller.iban}${seller.bic ? ` (BIC ${seller.bic})` : ''}, reference ${invoice.invoice_number}.`,
        ]
      : []),
    '',
    'The PDF is a ZUGFeRD / Factur-X e-invoice; the XRechnung XML is attached as well.',
    '',
    'Kind regards',
    seller.legal_name,
    ...(seller.phone ? [seller.phone] : []),
    seller.email,
  ].join('\n');
}

export async function sendInvoice(tenant: Tenant, id: number, to: string | undefined, now = new Date()): Promise<Invoice> {
  const invoice = await repo.requireInvoice(tenant, id, true);
  assertSendable(invoice.invoice_number, invoice.status);
  const [pdf, xml] = await Promise.all([invoiceDocument(tenant, invoice, 'pdf'), invoiceDocument(tenant, invoice, 'cii')]);
  await sendMail({
    to: to ?? invoice.customer.email,
    replyTo: invoice.seller.email,
    subject: `${tenant.mode === 'test' ? '[TEST] ' : ''}Invoice ${invoice.invoice_number} – ${invoice.seller.legal_name}`,
    text: messageText(invoice),
    attachments: [
      { filename: pdf.filename, contentType: pdf.contentType, content: pdf.bytes },
      { filename: xml.filename, contentType: xml.contentType, content: xml.bytes },
    ],
  });
  return retryOnVersionConflict('invoice', async (attempt) => {
    const before = attempt === 1 ? invoice : await repo.requireInvoice(tenant, id, true);
    const at = now.toISOString();
    const first = before.sent_at === null;
    const after: InvoiceRecord = {
      ...before,
      status: before.status === 'open' ? 'sent' : before.status,
      sent_at: before.sent_at ?? at,
      last_sent_at: at,
      updated_at: at,
      version: before.version + 1,
    };
    const view = present(after, now);
    await repo.saveInvoice(tenant, before, after, first ? [eventPut(tenant, invoiceSent, { invoice: view }, now).item] : []);
    return view;
  });
}
