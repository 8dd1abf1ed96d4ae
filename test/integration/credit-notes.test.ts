import { beforeAll, describe, expect, inject, it } from 'vitest';
import { CreditNoteSchema } from '#shared/credit-notes/schema';
import { InvoiceSchema } from '#shared/invoices/schema';
import { tool, writeScratch } from '#test/support/document-tools';
import { call } from '#test/support/http';
import { billableCustomer, enableInvoicing, invoiceOrder } from '#test/support/invoices';
import { newProduct } from '#test/support/orders';
import { confirmedOrder, eventsOf, freshShop, type Shop } from '#test/support/shop';
import { ofKind } from '#test/support/store';

/**
 * Credit notes over HTTP: a paid invoice credited in part and then for the rest, the third refused;
 * refunds of what was paid and credited; an unpaid invoice credited in full; twenty credit notes at
 * once; the credit note's PDF and XML (docs/invoices.md, "Credit notes").
 */
describe('credit notes', () => {
  let own: Shop;
  let customer: { id: number; name: string; email: string };
  let product: { id: number };
  beforeAll(async () => {
    own = await freshShop('Credit Note Shop');
    await enableInvoicing(own.accountId);
    customer = await billableCustomer(own.secretTest, { name: 'Zofia Łódź-Müller', company: 'Ørsted Print ApS' });
    // 1.00 per piece and a setup fee of 15.00: an invoice of n posters has line 1 (n × 1.00) and line 2 (setup, 15.00).
    product = await newProduct(own.secretTest, { name: 'Poster A2', setup_fee: 15 });
  });

  const key = () => own.secretTest;
  const year = new Date().getUTCFullYear();
  const numberOf = (note: { credit_note_number: string }) => Number(note.credit_note_number.split('-')[2]);
  const cents = (value: number) => Math.round(value * 100);

  /** An invoice of `quantity` posters with 4.90 shipping. */
  const invoiceOf = async (quantity: number) =>
    invoiceOrder(
      key(),
      (await confirmedOrder(key(), { customer_id: customer.id, items: [{ product_id: product.id, quantity }], shipping: 4.9 })).id,
    );
  const credit = (invoiceId: number, body: Record<string, unknown>) =>
    call('POST', `/v1/invoices/${invoiceId}/credit-notes`, { key: key(), body });
  const pay = (invoiceId: number, amount: number) =>
    call('POST', `/v1/invoices/${invoiceId}/payments`, { key: key(), body: { amount, method: 'bank_transfer' } });

  it('credits a paid invoice in part, then the rest; a third credit note is refused 409; the invoice shows what is credited and the refund owed', async () => {
    const invoice = await invoiceOf(100);
    expect((await pay(invoice.id, invoice.total)).body.data).toMatchObject({ status: 'paid', amount_due: 0 });

    const partialEvents = await eventsOf(own.tenant, async () => {
      const partial = await credit(invoice.id, { reason: 'Ten posters misprinted', items: [{ position: 1, quantity: 10 }] });
      expect(partial.status, JSON.stringify(partial.body)).toBe(201);
      CreditNoteSchema.strict().parse(partial.body.data);
      // 10 × 1.00 net at 19 %: 1.90 tax (the invoice's tax in proportion), 11.90 credited.
      expect(partial.body.data).toMatchObject({
        credit_note_number: expect.stringMatching(new RegExp(`^CN-${year}-\\d{6}$`)),
        invoice_id: invoice.id,
        invoice_number: invoice.invoice_number,
        invoice_issue_date: invoice.issued_at.slice(0, 10),
        reason: 'Ten posters misprinted',
        items: [
          {
            position: 1,
            invoice_position: 1,
            description: 'Poster A2',
            quantity: 10,
            unit_price: 1,
            tax_category: 'standard',
            tax_rate: 19,
            tax_exemption_reason: null,
            amount: 10,
            quantity_credited: 10,
          },
        ],
        subtotal: 10,
        shipping: 0,
        shipping_tax_category: 'standard',
        taxes: [{ category: 'standard', rate: 19, taxable_amount: 10, tax_amount: 1.9 }],
        tax: 1.9,
        total: 11.9,
        amount_refunded: 0,
        refunds: [],
      });
      expect((await call('GET', `/v1/credit-notes/${partial.body.data.id}`, { key: key() })).body.data).toEqual(partial.body.data);
    });
    expect(partialEvents.map((event) => event.kind).sort()).toEqual(['credit_note.created', 'invoice.updated']);
    const updated = ofKind(partialEvents, 'invoice.updated')[0]!.data.invoice;
    InvoiceSchema.strict().parse(updated);
    expect(updated).toMatchObject({ id: invoice.id, status: 'paid', amount_credited: 11.9, amount_due: 0, refund_due: 11.9 });

    const rest = await credit(invoice.id, { reason: 'Order cancelled: the rest' });
    expect(rest.status, JSON.stringify(rest.body)).toBe(201);
    const first = ofKind(partialEvents, 'credit_note.created')[0]!.data.credit_note;
    expect(numberOf(rest.body.data)).toBe(numberOf(first) + 1);
    // The rest: 90 posters, the setup line and the shipping; with the first, exactly the invoice.
    expect(rest.body.data.items.map((line) => [line.invoice_position, line.quantity, line.amount])).toEqual([
      [1, 90, 90],
      [2, 1, 15],
    ]);
    expect(rest.body.data.shipping).toBe(4.9);
    expect(cents(first.total) + cents(rest.body.data.total)).toBe(cents(invoice.total));
    expect(cents(first.tax) + cents(rest.body.data.tax)).toBe(cents(invoice.tax));

    const after = (await call('GET', `/v1/invoices/${invoice.id}`, { key: key() })).body.data;
    expect(after).toMatchObject({
      status: 'paid',
      amount_paid: invoice.total,
      amount_credited: invoice.total,
      amount_due: 0,
      refund_due: invoice.total,
      shipping_credited: 4.9,
      credited_items: [
        { position: 1, quantity: 100, amount: 100 },
        { position: 2, quantity: 1, amount: 15 },
      ],
    });
    expect(after.credit_notes.map((note) => [note.id, note.credit_note_number, note.total])).toEqual([
      [first.id, first.credit_note_number, first.total],
      [rest.body.data.id, rest.body.data.credit_note_number, rest.body.data.total],
    ]);

    // Nothing left: 409, and no number taken.
    const third = await credit(invoice.id, { reason: 'Once more', items: [{ position: 1, quantity: 1 }] });
    expect(third.status).toBe(409);
    expect(third.body.error.message).toContain('credited in full');
    const next = await credit((await invoiceOf(1)).id, { reason: 'Next', items: [{ position: 1, quantity: 1 }] });
    expect(numberOf(next.body.data)).toBe(numberOf(rest.body.data) + 1);

    // A paid invoice is corrected by credit note, never voided.
    expect((await call('POST', `/v1/invoices/${invoice.id}/void`, { key: key() })).status).toBe(409);

    const listed = await call('GET', '/v1/credit-notes?per_page=2', { key: key() });
    expect(listed.body.data.map((note) => note.id)).toEqual([next.body.data.id, rest.body.data.id]);
    const page2 = await call('GET', `/v1/credit-notes?per_page=2&starting_after=${listed.body.pagination.next_cursor}`, { key: key() });
    expect(page2.body.data.map((note) => note.id)).toEqual([first.id]);
  });

  it('refuses more than is uncredited with 422 naming the field, and takes no number', async () => {
    const invoice = await invoiceOf(5);
    const refused = [
      [{ items: [{ position: 1, quantity: 6 }] }, 'items.0.quantity'],
      [{ items: [{ position: 2, amount: 15.01 }] }, 'items.0.amount'],
      [{ items: [{ position: 3, quantity: 1 }] }, 'items.0.position'],
      [{ shipping: 5 }, 'shipping'],
    ] as const;
    for (const [body, field] of refused) {
      const response = await credit(invoice.id, { reason: 'Too much', ...body });
      expect(response.status, JSON.stringify(body)).toBe(422);
      expect(response.body.error.details!.map((detail: { field: string }) => detail.field)).toEqual([field]);
    }
    expect((await credit(invoice.id, { reason: 'Both', items: [{ position: 1, quantity: 1, amount: 1 }] })).status).toBe(422);
    expect((await credit(999_999, { reason: 'Nobody' })).status).toBe(404);
    const unchanged = (await call('GET', `/v1/invoices/${invoice.id}`, { key: key() })).body.data;
    expect(unchanged).toMatchObject({ amount_credited: 0, credit_notes: [], credited_items: [] });
  });

  it('records refunds of what was paid and credited, up to the refund owed; none for an unpaid invoice', async () => {
    const invoice = await invoiceOf(50);
    // Paid in full, then 20 posters credited: 23.80 is owed back.
    await pay(invoice.id, invoice.total);
    const note = (await credit(invoice.id, { reason: 'Returned', items: [{ position: 1, quantity: 20 }] })).body.data;
    expect(note.total).toBe(23.8);
    const refund = (amount: number) =>
      call('POST', `/v1/credit-notes/${note.id}/refunds`, {
        key: key(),
        body: { amount, method: 'bank_transfer', reference: 'SEPA back' },
      });

    const tooMuch = await refund(23.81);
    expect(tooMuch.status).toBe(422);
    expect(tooMuch.body.error.details).toEqual([{ field: 'amount', message: expect.stringContaining('23.80') }]);
    const events = await eventsOf(own.tenant, async () => {
      const part = await refund(20);
      expect(part.status, JSON.stringify(part.body)).toBe(201);
      expect(part.body.data).toMatchObject({
        amount_refunded: 20,
        refunds: [{ id: 1, amount: 20, method: 'bank_transfer', reference: 'SEPA back' }],
      });
    });
    expect(events.map((event) => event.kind)).toEqual(['invoice.updated']);
    expect(ofKind(events, 'invoice.updated')[0]!.data.invoice).toMatchObject({ amount_refunded: 20, refund_due: 3.8 });
    // Two racing refunds of the rest: one 201, the other finds nothing left (409).
    const racing = await Promise.all([refund(3.8), refund(3.8)]);
    expect(racing.map((response) => response.status).sort()).toEqual([201, 409]);
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: key() })).body.data).toMatchObject({
      amount_refunded: 23.8,
      refund_due: 0,
    });

    // Unpaid: the credit note lowers what is due; there is nothing to refund.
    const unpaid = await invoiceOf(10);
    const lowered = (await credit(unpaid.id, { reason: 'Discount', items: [{ position: 1, amount: 5 }] })).body.data;
    expect(lowered.items[0]).toMatchObject({
      description: 'Price reduction: Poster A2',
      quantity: 1,
      unit_price: 5,
      amount: 5,
      quantity_credited: 0,
    });
    expect((await call('GET', `/v1/invoices/${unpaid.id}`, { key: key() })).body.data).toMatchObject({
      status: 'open',
      amount_credited: 5.95,
      amount_due: cents(unpaid.total - 5.95) / 100,
      refund_due: 0,
    });
    const none = await call('POST', `/v1/credit-notes/${lowered.id}/refunds`, { key: key(), body: { amount: 1, method: 'cash' } });
    expect(none.status).toBe(409);
  });

  it('credits an unpaid invoice in full: credited, nothing due, not voidable, and its order may be invoiced again', async () => {
    const order = await confirmedOrder(key(), { customer_id: customer.id, items: [{ product_id: product.id, quantity: 7 }] });
    const invoice = await invoiceOrder(key(), order.id);
    const partly = await credit(invoice.id, { reason: 'Wrong price', items: [{ position: 2, amount: 5 }] });
    expect(partly.status).toBe(201);
    expect((await call('POST', `/v1/invoices/${invoice.id}/void`, { key: key() })).status).toBe(409);
    expect((await credit(invoice.id, { reason: 'Cancelled' })).status).toBe(201);
    expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: key() })).body.data).toMatchObject({
      status: 'credited',
      amount_due: 0,
      amount_credited: invoice.total,
      overdue: false,
    });
    expect((await pay(invoice.id, 1)).status).toBe(409);
    expect((await call('GET', '/v1/invoices?status=credited', { key: key() })).body.data.map((listed) => listed.id)).toContain(invoice.id);
    // Corrected by a new invoice (German practice: cancellation document, then a new invoice).
    const again = await invoiceOrder(key(), order.id);
    expect(again.id).not.toBe(invoice.id);
  });

  it('never credits more than the invoice when twenty credit notes race, and numbers them without gaps', async () => {
    const shop = await freshShop('Racing Credit Notes');
    await enableInvoicing(shop.accountId);
    const buyer = await billableCustomer(shop.secretTest);
    const poster = await newProduct(shop.secretTest, { name: 'Poster', setup_fee: 15 });
    const order = await confirmedOrder(shop.secretTest, { customer_id: buyer.id, items: [{ product_id: poster.id, quantity: 15 }] });
    const invoice = await invoiceOrder(shop.secretTest, order.id);
    const responses = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        call('POST', `/v1/invoices/${invoice.id}/credit-notes`, {
          key: shop.secretTest,
          body: { reason: `Poster ${index + 1} returned`, items: [{ position: 1, quantity: 1 }] },
        }),
      ),
    );
    // Fifteen posters: fifteen credit notes; the other five find nothing left on line 1 (422).
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(15);
    expect(statuses.filter((status) => status === 422)).toHaveLength(5);
    const notes = responses.filter((response) => response.status === 201).map((response) => response.body.data);
    expect(notes.map(numberOf).sort((a, b) => a - b)).toEqual(Array.from({ length: 15 }, (_, index) => index + 1));
    const after = (await call('GET', `/v1/invoices/${invoice.id}`, { key: shop.secretTest })).body.data;
    const credited = notes.reduce((sum, note) => sum + cents(note.total), 0);
    expect(cents(after.amount_credited)).toBe(credited);
    expect(credited).toBeLessThanOrEqual(cents(invoice.total));
    expect(after.credited_items).toEqual([{ position: 1, quantity: 15, amount: 15 }]);
    expect(after.credit_notes).toHaveLength(15);
  });

  describe('documents', () => {
    const fetchRaw = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${inject('fixtures').api}${path}`, { headers: { Authorization: `Bearer ${key()}`, ...headers }, redirect: 'manual' });

    it("serves the credit note's PDF and XML (type 381, the corrected invoice as BT-25 and BT-26) as the invoice's are served", async () => {
      const invoice = await invoiceOf(30);
      const note = (await credit(invoice.id, { reason: 'Fünf Plakate beschädigt', items: [{ position: 1, quantity: 5 }] })).body.data;

      const pdf = await fetchRaw(`/v1/credit-notes/${note.id}/pdf`, { Accept: 'application/pdf' });
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(pdf.headers.get('content-disposition')).toBe(`inline; filename="${note.credit_note_number}.pdf"`);
      const bytes = Buffer.from(await pdf.arrayBuffer());
      const file = writeScratch(`credit-note-${note.id}.pdf`, bytes);
      const text = tool('pdftotext', ['-raw', file, '-']).stdout;
      expect(text).toContain('Credit note');
      expect(text).toContain(note.credit_note_number);
      expect(text).toContain(invoice.invoice_number);
      expect(text).toContain('Fünf Plakate beschädigt');
      expect(tool('pdfdetach', ['-list', file]).stdout).toContain('xrechnung.xml');
      expect((await fetchRaw(`/v1/credit-notes/${note.id}/pdf`)).status).toBe(302);
      const url = await call('GET', `/v1/credit-notes/${note.id}/pdf?format=url`, { key: key() });
      expect(url.body.data).toMatchObject({ filename: `${note.credit_note_number}.pdf`, url: expect.stringContaining('X-Amz-Signature=') });

      const cii = await fetchRaw(`/v1/credit-notes/${note.id}/xml`);
      expect(cii.status).toBe(200);
      expect(cii.headers.get('content-disposition')).toBe(`attachment; filename="${note.credit_note_number}-cii.xml"`);
      const ciiText = await cii.text();
      expect(ciiText).toContain('<ram:TypeCode>381</ram:TypeCode>');
      expect(ciiText).toContain(`<ram:IssuerAssignedID>${invoice.invoice_number}</ram:IssuerAssignedID>`);
      expect(ciiText).toContain(`<ram:GrandTotalAmount>${note.total.toFixed(2)}</ram:GrandTotalAmount>`);
      const ubl = await (await fetchRaw(`/v1/credit-notes/${note.id}/xml?syntax=ubl`)).text();
      expect(ubl).toContain('<CreditNote');
      expect(ubl).toContain('<cbc:CreditNoteTypeCode>381</cbc:CreditNoteTypeCode>');
      expect(ubl).toContain(`<cbc:ID>${invoice.invoice_number}</cbc:ID>`);
      expect((await call('GET', '/v1/credit-notes/999999/xml', { key: key() })).status).toBe(404);
    });

    it("keeps a voided invoice's e-invoice the invoice as issued (380), and shows a paid invoice's payment as BT-113", async () => {
      const voided = await invoiceOf(3);
      const asIssued = await (await fetchRaw(`/v1/invoices/${voided.id}/xml`)).text();
      expect((await call('POST', `/v1/invoices/${voided.id}/void`, { key: key() })).status).toBe(200);
      const afterVoid = await (await fetchRaw(`/v1/invoices/${voided.id}/xml`)).text();
      expect(afterVoid).toBe(asIssued);
      expect(afterVoid).toContain('<ram:TypeCode>380</ram:TypeCode>');

      const paid = await invoiceOf(4);
      const unpaidXml = await (await fetchRaw(`/v1/invoices/${paid.id}/xml`)).text();
      expect(unpaidXml).not.toContain('TotalPrepaidAmount');
      await pay(paid.id, 5);
      const partlyPaid = await (await fetchRaw(`/v1/invoices/${paid.id}/xml?syntax=ubl`)).text();
      expect(partlyPaid).toContain('<cbc:PrepaidAmount currencyID="EUR">5.00</cbc:PrepaidAmount>');
      expect(partlyPaid).toContain(`<cbc:PayableAmount currencyID="EUR">${(paid.total - 5).toFixed(2)}</cbc:PayableAmount>`);
      // The CII says the same (the document as issued stays stored beside it, under its own key).
      expect(await (await fetchRaw(`/v1/invoices/${paid.id}/xml`)).text()).toContain(
        '<ram:TotalPrepaidAmount>5.00</ram:TotalPrepaidAmount>',
      );
    });
  });
});
