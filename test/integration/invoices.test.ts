import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { InvoiceSchema } from '#shared/invoices/schema';
import { scratchDir, tool, writeScratch } from '#test/support/document-tools';
import { call, dynamoDbWork, type Query } from '#test/support/http';
import { walkByCursor } from '#test/support/cursor-walk';
import { billableCustomer, enableInvoicing, invoiceOrder, sellerCompany } from '#test/support/invoices';
import { mailbox } from '#test/support/mail';
import { newCustomer, newOrder, newProduct, putOrder } from '#test/support/orders';
import { DeleteCommand, GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { emptyCompany } from '#shared/accounts/company';
import { dynamo } from '#shared/clients/dynamodb';
import { batchWriteAll, putRequest } from '#shared/db/batch';
import { TOTAL_CAP } from '#shared/db/collections';
import { accountSettingsKey, createdSortKey, dueSortKey, invoiceKeys, platformKeys, tenantKeys, type ItemKey } from '#shared/db/keys';
import { isUnpaid } from '#shared/invoices/status';
import { INVOICES, invoiceCreation, invoiceFromItem, invoiceStatusCounter, type InvoiceRecord } from '#shared/invoices/stored';
import { tableName } from '#shared/db/table';
import { rerenderInvoiceDocuments } from '#shared/invoices/document-repair';
import { store } from '#shared/invoices/document-store';

const storedItem = async (key: ItemKey) =>
  (await dynamo().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;
const storedCompanyOf = (legalName: string) => ({ ...emptyCompany(), legal_name: legalName });
import { confirmedOrder, eventsOf, freshShop, type Shop } from '#test/support/shop';
import { ofKind } from '#test/support/store';

/** Invoices over HTTP: issued from orders or lines, numbered without gaps, paid, voided, listed. */
describe('invoices', () => {
  let own: Shop;
  let customer: { id: number; name: string; email: string };
  let product: { id: number };
  beforeAll(async () => {
    own = await freshShop('Invoice Shop');
    await enableInvoicing(own.accountId);
    customer = await billableCustomer(own.secretTest, { name: 'Zofia Łódź-Müller', company: 'Ørsted Print ApS', vat_id: 'DK13585628' });
    // 1.00 per piece and a setup fee of 15.00: the fee becomes an invoice line of its own.
    product = await newProduct(own.secretTest, { name: 'Poster A2', setup_fee: 15 });
  });

  const key = () => own.secretTest;

  /** An order of `quantity` posters with 4.90 shipping, for confirmedOrder. */
  const posters = (quantity: number) => ({ customer_id: customer.id, items: [{ product_id: product.id, quantity }], shipping: 4.9 });

  const numberOf = (invoice: { invoice_number: string }) => Number(invoice.invoice_number.split('-')[2]);

  it("refuses to issue an invoice while the account's company details are missing, naming them", async () => {
    const bare = await freshShop('No Company Shop');
    const someone = await newCustomer(bare.secretTest);
    const response = await call('POST', '/v1/invoices', {
      key: bare.secretTest,
      body: { customer_id: someone.id, items: [{ description: 'Design', quantity: 1, unit_price: 10 }] },
    });
    expect(response.status).toBe(422);
    expect(response.body.error.details!.map((detail: { field: string }) => detail.field).sort()).toEqual([
      'company.address',
      'company.email',
      'company.legal_name',
      'company.phone',
      'company.vat_id',
    ]);
  });

  it("invoices a confirmed order with the order's totals, lines, billing address and the seller's details", async () => {
    const order = await confirmedOrder(key(), posters(100));
    const events = await eventsOf(own.tenant, async () => {
      const invoice = await invoiceOrder(key(), order.id, { notes: 'Danke!' });
      InvoiceSchema.strict().parse(invoice);
      expect(invoice).toMatchObject({
        order_id: order.id,
        order_number: order.order_number,
        status: 'open',
        overdue: false,
        subtotal: order.subtotal,
        shipping: order.shipping,
        tax: order.tax,
        total: order.total,
        amount_paid: 0,
        amount_due: order.total,
        currency: 'EUR',
        tax_rate: 19,
        tax_breakdown: [{ tax_rate: 19, taxable_amount: order.subtotal + order.shipping, tax: order.tax }],
        customer: { id: customer.id, name: 'Zofia Łódź-Müller', email: customer.email, company: 'Ørsted Print ApS', vat_id: 'DK13585628' },
        seller: { legal_name: sellerCompany().legal_name, vat_id: 'DE123456789', iban: 'DE89370400440532013000', payment_terms_days: 14 },
        notes: 'Danke!',
        payments: [],
      });
      expect(invoice.invoice_number).toMatch(new RegExp(`^INV-${new Date().getUTCFullYear()}-\\d{6}$`));
      // 100 × 1.00, then the setup fee as its own line.
      expect(invoice.items).toEqual([
        {
          position: 1,
          description: 'Poster A2',
          quantity: 100,
          unit_price: 1,
          tax_category: 'standard',
          tax_rate: 19,
          tax_exemption_reason: null,
          amount: 100,
          order_item_id: 1,
        },
        {
          position: 2,
          description: 'Setup: Poster A2',
          quantity: 1,
          unit_price: 15,
          tax_category: 'standard',
          tax_rate: 19,
          tax_exemption_reason: null,
          amount: 15,
          order_item_id: 1,
        },
      ]);
      const issued = new Date(invoice.issued_at).getTime();
      expect(invoice.due_date).toBe(new Date(issued + 14 * 86_400_000).toISOString().slice(0, 10));
      expect((await call('GET', `/v1/invoices/${invoice.id}`, { key: key() })).body.data).toEqual(invoice);
    });
    expect(events.map((event) => event.kind)).toEqual(['invoice.created']);
    expect(ofKind(events, 'invoice.created')[0]!.data.invoice.order_id).toBe(order.id);
  });

  it('refuses a pending or cancelled order (409), and a second invoice for the same order until the first is void', async () => {
    const pending = await newOrder(key(), { customer_id: customer.id, items: [{ product_id: product.id, quantity: 10 }] });
    expect((await call('POST', '/v1/invoices', { key: key(), body: { order_id: pending.id } })).status).toBe(409);
    await putOrder(key(), pending.id, { status: 'cancelled' });
    expect((await call('POST', '/v1/invoices', { key: key(), body: { order_id: pending.id } })).status).toBe(409);
    expect((await call('POST', '/v1/invoices', { key: key(), body: { order_id: 999_999 } })).status).toBe(404);

    const order = await confirmedOrder(key(), posters(10));
    const first = await invoiceOrder(key(), order.id);
    const again = await call('POST', '/v1/invoices', { key: key(), body: { order_id: order.id } });
    expect(again.status).toBe(409);
    expect(again.body.error.message).toContain(first.invoice_number);

    const voided = await call('POST', `/v1/invoices/${first.id}/void`, { key: key() });
    expect(voided.status, JSON.stringify(voided.body)).toBe(200);
    expect(voided.body.data).toMatchObject({ status: 'void', amount_due: 0 });
    const second = await invoiceOrder(key(), order.id);
    expect(numberOf(second)).toBe(numberOf(first) + 1);
    const listed = await call('GET', `/v1/invoices?order_id=${order.id}`, { key: key() });
    expect(listed.body.data.map((invoice: { id: number }) => invoice.id)).toEqual([second.id, first.id]);
    expect((await call('GET', `/v1/invoices?order_id=${order.id}&status=void`, { key: key() })).body.data).toHaveLength(1);
  });

  it('gives twenty concurrent invoices for different orders twenty consecutive numbers, and of two for one order one 201 and one 409', async () => {
    const shop = await freshShop('Numbering Shop');
    await enableInvoicing(shop.accountId);
    const buyer = await billableCustomer(shop.secretTest);
    const item = await newProduct(shop.secretTest);
    const orders: { id: number }[] = [];
    for (let i = 0; i < 21; i++) {
      const order = await newOrder(shop.secretTest, { customer_id: buyer.id, items: [{ product_id: item.id, quantity: 1 }] });
      expect((await putOrder(shop.secretTest, order.id, { status: 'confirmed' })).status).toBe(200);
      orders.push(order);
    }
    const responses = await Promise.all(
      orders.slice(0, 20).map((order) => call('POST', '/v1/invoices', { key: shop.secretTest, body: { order_id: order.id } })),
    );
    expect(responses.map((response) => response.status)).toEqual(Array(20).fill(201));
    const numbers = responses.map((response) => numberOf(response.body.data)).sort((a, b) => a - b);
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, index) => index + 1));

    const twice = await Promise.all(
      [1, 2].map(() => call('POST', '/v1/invoices', { key: shop.secretTest, body: { order_id: orders[20]!.id } })),
    );
    expect(twice.map((response) => response.status).sort()).toEqual([201, 409]);
    // The refused one took no number: the next invoice continues without a gap.
    const winner = twice.find((response) => response.status === 201)!.body.data;
    expect(numberOf(winner)).toBe(21);
    const listed = await call('GET', '/v1/invoices?per_page=100', { key: shop.secretTest });
    expect(listed.body.pagination.total).toBe(21);
  });

  it('issues an invoice for lines without an order: amounts rounded half-up per line, tax once per rate, the default billing address', async () => {
    const buyer = await newCustomer(key(), { name: 'Ελληνικά Druck' });
    const address = await call('POST', `/v1/customers/${buyer.id}/addresses`, {
      key: key(),
      body: {
        type: 'billing',
        name: 'Buchhaltung',
        line1: 'Kurfürstendamm 1',
        postal_code: '10719',
        city: 'Berlin',
        country: 'DE',
        is_default: true,
      },
    });
    expect(address.status, JSON.stringify(address.body)).toBe(201);
    const response = await call('POST', '/v1/invoices', {
      key: key(),
      body: {
        customer_id: buyer.id,
        due_days: 30,
        buyer_reference: '991-12345-67',
        items: [
          { description: 'Design work', quantity: 1.5, unit_price: 65.55 }, // 98.325 → 98.33
          { description: 'Books', quantity: 3, unit_price: 9.99, tax_rate: 7 },
          { description: 'Export service', quantity: 1, unit_price: 10, tax_rate: 0 },
        ],
      },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const invoice = response.body.data;
    expect(invoice.items.map((line: { amount: number }) => line.amount)).toEqual([98.33, 29.97, 10]);
    expect(invoice.tax_breakdown).toEqual([
      { tax_rate: 19, taxable_amount: 98.33, tax: 18.68 },
      { tax_rate: 7, taxable_amount: 29.97, tax: 2.1 },
      { tax_rate: 0, taxable_amount: 10, tax: 0 },
    ]);
    expect(invoice).toMatchObject({ subtotal: 138.3, tax: 20.78, total: 159.08, tax_rate: null, order_id: null, shipping: 0 });
    expect(invoice.customer).toMatchObject({
      buyer_reference: '991-12345-67',
      billing_address: { line1: 'Kurfürstendamm 1', city: 'Berlin' },
    });

    const bad = await call('POST', '/v1/invoices', {
      key: key(),
      body: { customer_id: buyer.id, order_id: 1, items: [{ description: '', quantity: 0.0001, unit_price: 1.234 }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.error.details!.map((detail: { field: string }) => detail.field).sort()).toEqual(
      expect.arrayContaining(['customer_id', 'items', 'items.0.description', 'items.0.quantity', 'items.0.unit_price']),
    );
    expect(
      (
        await call('POST', '/v1/invoices', {
          key: key(),
          body: { customer_id: 999_999, items: [{ description: 'x', quantity: 1, unit_price: 1 }] },
        })
      ).status,
    ).toBe(404);
  });

  it('refuses an invoice too large to store (200 lines of 500 three-byte characters) with 422, taking no number', async () => {
    const buyer = await billableCustomer(key());
    const line = { description: '€'.repeat(500), quantity: 1, unit_price: 1 };
    const before = (await call('GET', '/v1/invoices', { key: key() })).body.pagination.total;
    const huge = await call('POST', '/v1/invoices', {
      key: key(),
      body: { customer_id: buyer.id, items: Array.from({ length: 200 }, () => line) },
    });
    expect(huge.status, JSON.stringify(huge.body).slice(0, 300)).toBe(422);
    expect(huge.body.error.details).toEqual([expect.objectContaining({ field: 'items', message: expect.stringContaining('at most 150') })]);
    expect((await call('GET', '/v1/invoices', { key: key() })).body.pagination.total).toBe(before);
    // A large but real invoice still fits.
    const large = await call('POST', '/v1/invoices', {
      key: key(),
      body: { customer_id: buyer.id, items: Array.from({ length: 60 }, () => ({ ...line, description: 'x'.repeat(500) })) },
    });
    expect(large.status, JSON.stringify(large.body).slice(0, 300)).toBe(201);
  });

  it('refuses free lines whose amounts leave the money range (422 naming the line or the lines), taking no number', async () => {
    const buyer = await billableCustomer(key());
    const before = (await call('GET', '/v1/invoices', { key: key() })).body.pagination.total;
    const free = (items: unknown[]) => call('POST', '/v1/invoices', { key: key(), body: { customer_id: buyer.id, items } });
    const line = { description: 'Rollout', quantity: 1_000_000, unit_price: 1_000_000 };
    const one = await free([{ description: 'Fine', quantity: 1, unit_price: 1 }, line]);
    expect(one.status, JSON.stringify(one.body).slice(0, 300)).toBe(422);
    expect(one.body.error.details).toEqual([{ field: 'items.1', message: expect.stringContaining('more than 1000000000') }]);
    // Each line in range, together beyond it (and beyond exact integers of minor units, 200 × 10^14).
    const many = await free(Array.from({ length: 200 }, () => ({ ...line, quantity: 1000 })));
    expect(many.status, JSON.stringify(many.body).slice(0, 300)).toBe(422);
    expect(many.body.error.details).toEqual([{ field: 'items', message: expect.stringContaining('more than 1000000000') }]);
    expect((await call('GET', '/v1/invoices', { key: key() })).body.pagination.total).toBe(before);
  });

  describe('payments', () => {
    it('accumulates partial payments; the remainder makes it paid with exactly one invoice.paid; more is refused', async () => {
      const invoice = await invoiceOrder(key(), (await confirmedOrder(key(), posters(50))).id);
      const pay = (amount: number) =>
        call('POST', `/v1/invoices/${invoice.id}/payments`, { key: key(), body: { amount, method: 'bank_transfer', reference: 'SEPA' } });

      const partial = await pay(20);
      expect(partial.status, JSON.stringify(partial.body)).toBe(201);
      expect(partial.body.data).toMatchObject({
        status: 'open',
        amount_paid: 20,
        amount_due: Math.round((invoice.total - 20) * 100) / 100,
      });
      expect(partial.body.data.payments).toEqual([
        expect.objectContaining({ id: 1, amount: 20, method: 'bank_transfer', reference: 'SEPA' }),
      ]);

      const over = await pay(invoice.total);
      expect(over.status).toBe(422);
      expect(over.body.error.details![0]!.field).toBe('amount');

      const events = await eventsOf(own.tenant, async () => {
        const rest = await pay(partial.body.data.amount_due);
        expect(rest.status).toBe(201);
        expect(rest.body.data).toMatchObject({ status: 'paid', amount_due: 0, amount_paid: invoice.total });
        expect(rest.body.data.paid_at).not.toBeNull();
      });
      expect(events.map((event) => event.kind)).toEqual(['invoice.paid']);
      expect((await pay(1)).status).toBe(409);
      expect((await call('POST', `/v1/invoices/${invoice.id}/void`, { key: key() })).status).toBe(409);
    });

    it('lets only one of two racing payments of the whole amount through, with one invoice.paid', async () => {
      const invoice = await invoiceOrder(key(), (await confirmedOrder(key(), posters(30))).id);
      const events = await eventsOf(own.tenant, async () => {
        const responses = await Promise.all(
          [1, 2].map(() =>
            call('POST', `/v1/invoices/${invoice.id}/payments`, { key: key(), body: { amount: invoice.total, method: 'card' } }),
          ),
        );
        expect(responses.map((response) => response.status).sort()).toEqual([201, 409]);
      });
      expect(events.filter((event) => event.kind === 'invoice.paid')).toHaveLength(1);
      const stored = (await call('GET', `/v1/invoices/${invoice.id}`, { key: key() })).body.data;
      expect(stored.payments).toHaveLength(1);
      expect(stored.amount_paid).toBe(invoice.total);
    });

    it('refuses payments on a void invoice (409) and voiding an invoice with a payment (409)', async () => {
      const voided = await invoiceOrder(key(), (await confirmedOrder(key(), posters(5))).id);
      expect((await call('POST', `/v1/invoices/${voided.id}/void`, { key: key() })).status).toBe(200);
      expect((await call('POST', `/v1/invoices/${voided.id}/payments`, { key: key(), body: { amount: 1, method: 'cash' } })).status).toBe(
        409,
      );
      expect((await call('POST', `/v1/invoices/${voided.id}/void`, { key: key() })).status).toBe(409);

      const partlyPaid = await invoiceOrder(key(), (await confirmedOrder(key(), posters(6))).id);
      expect(
        (await call('POST', `/v1/invoices/${partlyPaid.id}/payments`, { key: key(), body: { amount: 1, method: 'cash' } })).status,
      ).toBe(201);
      expect((await call('POST', `/v1/invoices/${partlyPaid.id}/void`, { key: key() })).status).toBe(409);
    });
  });

  describe('lists', () => {
    it('filters by status, customer and due date, and refuses combinations no index serves', async () => {
      const shop = await freshShop('List Shop');
      await enableInvoicing(shop.accountId);
      const [a, b] = [await billableCustomer(shop.secretTest), await billableCustomer(shop.secretTest)];
      const issue = async (customerId: number, dueDays: number) => {
        const response = await call('POST', '/v1/invoices', {
          key: shop.secretTest,
          body: { customer_id: customerId, due_days: dueDays, items: [{ description: 'Work', quantity: 1, unit_price: 10 }] },
        });
        expect(response.status).toBe(201);
        return response.body.data;
      };
      const first = await issue(a.id, 3);
      const second = await issue(b.id, 10);
      const third = await issue(a.id, 0);
      await call('POST', `/v1/invoices/${second.id}/void`, { key: shop.secretTest });
      const ids = async (query: Query) => {
        const response = await call('GET', `/v1/invoices${query}`, { key: shop.secretTest });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        return response.body.data.map((invoice) => invoice.id);
      };
      expect(await ids('')).toEqual([third.id, second.id, first.id]);
      expect(await ids('?status=open')).toEqual([third.id, first.id]);
      expect(await ids('?status=void')).toEqual([second.id]);
      expect(await ids(`?customer_id=${a.id}`)).toEqual([third.id, first.id]);
      expect(await ids(`?customer_id=${b.id}&status=void`)).toEqual([second.id]);
      const inFiveDays = new Date(Date.now() + 5 * 86_400_000).toISOString().slice(0, 10);
      // Earliest due first; the voided one is due later.
      expect(await ids(`?due_before=${inFiveDays}`)).toEqual([third.id, first.id]);
      // Due today is not overdue yet.
      expect(await ids('?overdue=true')).toEqual([]);
      const customerList = await call('GET', `/v1/customers/${a.id}/invoices`, { key: shop.secretTest });
      expect(customerList.body.pagination.total).toBe(2);
      expect((await call('GET', '/v1/customers/999999/invoices', { key: shop.secretTest })).status).toBe(404);

      for (const query of [
        `?overdue=true&status=open`,
        `?due_before=${inFiveDays}&customer_id=${a.id}`,
        `?customer_id=${a.id}&order_id=1`,
        '?overdue=false',
      ]) {
        const refused = await call('GET', `/v1/invoices${query}`, { key: shop.secretTest });
        expect(refused.status, query).toBe(422);
      }
    });
  });

  describe('account', () => {
    it('sets and shows the company details, and refuses an IBAN with a wrong check digit', async () => {
      const shop = await freshShop('Company Shop');
      const set = await call('PUT', '/v1/account', {
        key: shop.secretTest,
        body: { company: { ...sellerCompany(), payment_terms_days: 30 } },
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.data.company).toMatchObject({
        legal_name: sellerCompany().legal_name,
        iban: 'DE89370400440532013000',
        payment_terms_days: 30,
      });
      expect((await call('GET', '/v1/account', { key: shop.secretTest })).body.data.company).toEqual(set.body.data.company);
      const cleared = await call('PUT', '/v1/account', { key: shop.secretTest, body: { company: { phone: null } } });
      expect(cleared.body.data.company).toMatchObject({ phone: null, legal_name: sellerCompany().legal_name });
      const bad = await call('PUT', '/v1/account', { key: shop.secretTest, body: { company: { iban: 'DE88 3704 0044 0532 0130 00' } } });
      expect(bad.status).toBe(422);
      expect(bad.body.error.details![0]!.field).toBe('company.iban');
    });

    it("keeps the account's own settings in its tenant space: PUT /v1/account leaves the platform record as the operator wrote it", async () => {
      const shop = await freshShop('Settings Shop');
      const before = await storedItem(platformKeys.account(shop.accountId));
      const set = await call('PUT', '/v1/account', {
        key: shop.secretLive,
        body: { name: 'Renamed Shop', company: { phone: '+49 30 1' } },
      });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(await storedItem(platformKeys.account(shop.accountId))).toEqual(before);
      const settings = await storedItem(accountSettingsKey(shop.accountId));
      expect(settings).toMatchObject({ pk: `T#${shop.accountId}#ACCOUNT`, name: 'Renamed Shop', company: { phone: '+49 30 1' } });
      // One item for both modes: the test key sees what the live key set.
      const shown = (await call('GET', '/v1/account', { key: shop.secretTest })).body.data;
      expect(shown).toMatchObject({ name: 'Renamed Shop', company: { phone: '+49 30 1' } });
    });

    it('loses no edit when two change different company fields at once', async () => {
      const shop = await freshShop('Racing Settings Shop');
      const edits = await Promise.all([
        call('PUT', '/v1/account', { key: shop.secretTest, body: { company: { phone: '+49 30 2' } } }),
        call('PUT', '/v1/account', { key: shop.secretTest, body: { company: { email: 'billing@example.com' } } }),
      ]);
      // The one that lost the conditional write read again and applied its change on top.
      expect(edits.map((edit) => edit.status)).toEqual([200, 200]);
      const company = (await call('GET', '/v1/account', { key: shop.secretTest })).body.data.company;
      expect(company).toMatchObject({ phone: '+49 30 2', email: 'billing@example.com' });
    });

    it('reads the name and company of an account stored before its settings had an item of their own', async () => {
      const shop = await freshShop('Old Shop');
      const record = (await storedItem(platformKeys.account(shop.accountId)))!;
      // As the accounts of earlier versions were stored: name and company on the record.
      await dynamo().send(
        new PutCommand({ TableName: tableName(), Item: { ...record, name: 'Old Name', company: { ...storedCompanyOf('Old GmbH') } } }),
      );
      await dynamo().send(new DeleteCommand({ TableName: tableName(), Key: accountSettingsKey(shop.accountId) }));
      expect((await call('GET', '/v1/account', { key: shop.secretTest })).body.data).toMatchObject({
        name: 'Old Name',
        company: { legal_name: 'Old GmbH' },
      });
      const changed = await call('PUT', '/v1/account', { key: shop.secretTest, body: { company: { phone: '+49 30 3' } } });
      expect(changed.body.data).toMatchObject({ name: 'Old Name', company: { legal_name: 'Old GmbH', phone: '+49 30 3' } });
      expect(await storedItem(accountSettingsKey(shop.accountId))).toMatchObject({ name: 'Old Name', company: { legal_name: 'Old GmbH' } });
    });
  });

  describe('documents', () => {
    const fetchRaw = (path: string, headers: Record<string, string> = {}) =>
      fetch(`${inject('fixtures').api}${path}`, { headers: { Authorization: `Bearer ${key()}`, ...headers }, redirect: 'manual' });
    const pdfText = (bytes: Buffer) => tool('pdftotext', ['-raw', writeScratch(`invoice-${Date.now()}.pdf`, bytes), '-']).stdout;

    it('serves the PDF as bytes for Accept: application/pdf, rendered once and then from S3; a redirect or a URL otherwise', async () => {
      const invoice = await invoiceOrder(key(), (await confirmedOrder(key(), posters(20))).id);
      const first = await fetchRaw(`/v1/invoices/${invoice.id}/pdf`, { Accept: 'application/pdf' });
      expect(first.status).toBe(200);
      expect(first.headers.get('content-type')).toBe('application/pdf');
      expect(first.headers.get('content-disposition')).toBe(`inline; filename="${invoice.invoice_number}.pdf"`);
      expect(first.headers.get('x-document-cached')).toBe('false');
      const bytes = Buffer.from(await first.arrayBuffer());
      expect(bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      const text = pdfText(bytes);
      expect(text).toContain(invoice.invoice_number);
      expect(text).toContain('Zofia Łódź-Müller');
      expect(text).toContain('Ørsted Print ApS');
      expect(text).toContain(invoice.total.toFixed(2));
      expect(text).toContain('TEST');

      const second = await fetchRaw(`/v1/invoices/${invoice.id}/pdf`, { Accept: 'application/pdf' });
      expect(second.headers.get('x-document-cached')).toBe('true');
      expect(Buffer.from(await second.arrayBuffer()).equals(bytes)).toBe(true);

      // Any other client: the presigned URL, which serves the same bytes without a key.
      const redirected = await fetchRaw(`/v1/invoices/${invoice.id}/pdf`);
      expect(redirected.status).toBe(302);
      const fromS3 = await fetch(redirected.headers.get('location')!);
      expect(fromS3.status).toBe(200);
      expect(fromS3.headers.get('content-type')).toBe('application/pdf');
      expect(Buffer.from(await fromS3.arrayBuffer()).equals(bytes)).toBe(true);
      const url = await call('GET', `/v1/invoices/${invoice.id}/pdf?format=url`, { key: key() });
      expect(url.status).toBe(200);
      expect(url.body.data).toMatchObject({ filename: `${invoice.invoice_number}.pdf`, url: expect.stringContaining('X-Amz-Signature=') });
      expect(new Date(url.body.data.expires_at).getTime() - Date.now()).toBeGreaterThan(14 * 60_000);
      // A browser's Accept (text/html first) gets the redirect too: API Gateway would answer it base64 text.
      expect((await fetchRaw(`/v1/invoices/${invoice.id}/pdf`, { Accept: 'text/html,application/pdf;q=0.9' })).status).toBe(302);
    });

    it('embeds the XRechnung CII XML in the PDF and serves the XML in both syntaxes, without a live watermark', async () => {
      const live = own.secretLive;
      const buyer = await billableCustomer(live, { name: 'Ørsted Live' });
      const created = await call('POST', '/v1/invoices', {
        key: live,
        body: { customer_id: buyer.id, items: [{ description: 'Design work', quantity: 2, unit_price: 50 }] },
      });
      expect(created.status).toBe(201);
      const invoice = created.body.data;
      const get = (path: string, headers: Record<string, string> = {}) =>
        fetch(`${inject('fixtures').api}${path}`, { headers: { Authorization: `Bearer ${live}`, ...headers } });
      const cii = await get(`/v1/invoices/${invoice.id}/xml`);
      expect(cii.status).toBe(200);
      expect(cii.headers.get('content-type')).toBe('application/xml; charset=utf-8');
      expect(cii.headers.get('content-disposition')).toBe(`attachment; filename="${invoice.invoice_number}-cii.xml"`);
      const ciiText = await cii.text();
      expect(ciiText).toContain('CrossIndustryInvoice');
      expect(ciiText).toContain(invoice.invoice_number);
      const ubl = await (await get(`/v1/invoices/${invoice.id}/xml?syntax=ubl`)).text();
      expect(ubl).toMatch(/<(ubl:)?Invoice[ >]/);
      expect(ubl).toContain('urn:oasis:names:specification:ubl:schema:xsd:Invoice-2');
      expect(ubl).toContain(invoice.invoice_number);
      expect((await get(`/v1/invoices/${invoice.id}/xml?syntax=edifact`)).status).toBe(422);

      const pdf = Buffer.from(await (await get(`/v1/invoices/${invoice.id}/pdf`, { Accept: 'application/pdf' })).arrayBuffer());
      expect(pdfText(pdf)).not.toContain('TEST');
      const dir = scratchDir();
      const file = writeScratch(`live-${invoice.id}.pdf`, pdf);
      expect(tool('pdfdetach', ['-list', file]).stdout).toContain('xrechnung.xml');
      tool('pdfdetach', ['-saveall', '-o', dir, file]);
      expect(readFileSync(join(dir, 'xrechnung.xml'), 'utf8')).toBe(ciiText);
    });

    it('refuses text XML 1.0 cannot hold (422), and renders again the stored documents of an invoice that holds such text from before', async () => {
      const refused = await call('POST', '/v1/customers', {
        key: key(),
        body: { name: 'Anna', email: 'a@example.com', company: 'Müller\uffff GmbH' },
      });
      expect(refused.status).toBe(422);
      expect(refused.body.error.details).toEqual([{ field: 'company', message: expect.stringContaining('U+FFFF') }]);
      const account = await call('PUT', '/v1/account', { key: key(), body: { company: { legal_name: 'Druckerei\ufffe GmbH' } } });
      expect(account.status).toBe(422);
      expect(account.body.error.details).toEqual([{ field: 'company.legal_name', message: expect.stringContaining('U+FFFE') }]);

      // Two invoices; one's stored record holds U+FFFF in the buyer's name (written before the rule), and its XML was stored broken.
      const [broken, clean] = [
        await invoiceOrder(key(), (await confirmedOrder(key(), posters(3))).id),
        await invoiceOrder(key(), (await confirmedOrder(key(), posters(4))).id),
      ];
      const itemKey = invoiceKeys.invoice(own.tenant, broken.id);
      const item = (await storedItem(itemKey))!;
      await dynamo().send(
        new PutCommand({ TableName: tableName(), Item: { ...item, customer: { ...item.customer, name: 'Zofia\uffff Łódź' } } }),
      );
      const xmlOf = async (id: number) => {
        const response = await fetchRaw(`/v1/invoices/${id}/xml`);
        expect(response.status).toBe(200);
        return response.text();
      };
      const cleanXml = await xmlOf(clean.id);
      await store(
        invoiceKeys.document(own.tenant, broken.id, 1, 'invoice-cii.xml'),
        new TextEncoder().encode('<a>\uffff</a>'),
        'application/xml',
        'x.xml',
      );
      const brokenXml = await xmlOf(broken.id);
      expect(() => tool('xmllint', ['--noout', writeScratch(`broken-${broken.id}.xml`, brokenXml)])).toThrow(/out of allowed range/);

      const result = await rerenderInvoiceDocuments(own.tenant);
      expect(result).toMatchObject({ rerendered: 1, documents: 1 });
      expect(result.invoices).toBeGreaterThanOrEqual(2);
      const repaired = await xmlOf(broken.id);
      expect(tool('xmllint', ['--noout', writeScratch(`repaired-${broken.id}.xml`, repaired)]).stderr).toBe('');
      expect(repaired).toContain('Zofia\ufffd Łódź');
      // Invoices without such text keep their documents byte for byte.
      expect(await xmlOf(clean.id)).toBe(cleanXml);
    });

    it('sends the PDF and the XML by mail, marks the invoice sent with one invoice.sent, and sends again without a second event', async () => {
      const invoice = await invoiceOrder(key(), (await confirmedOrder(key(), posters(10))).id);
      const mailDir = process.env.MAIL_DIR!;
      const before = mailbox(mailDir).length;
      const events = await eventsOf(own.tenant, async () => {
        const sent = await call('POST', `/v1/invoices/${invoice.id}/send`, { key: key() });
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        expect(sent.body.data).toMatchObject({ status: 'sent', sent_at: expect.any(String) });
        const again = await call('POST', `/v1/invoices/${invoice.id}/send`, { key: key(), body: { to: 'accounts@example.com' } });
        expect(again.status).toBe(200);
        expect(again.body.data.sent_at).toBe(sent.body.data.sent_at);
        expect(again.body.data.last_sent_at! >= sent.body.data.sent_at!).toBe(true);
      });
      expect(events.map((event) => event.kind)).toEqual(['invoice.sent']);
      const mails = mailbox(mailDir)
        .slice(before)
        .filter((mail) => mail.header('subject')?.includes(invoice.invoice_number));
      expect(mails.map((mail) => mail.header('to'))).toEqual([customer.email, 'accounts@example.com']);
      const [mail] = mails;
      expect(mail!.header('subject')).toBe(`[TEST] Invoice ${invoice.invoice_number} – ${sellerCompany().legal_name}`);
      expect(mail!.attachments.map((attachment) => [attachment.filename, attachment.contentType])).toEqual([
        [`${invoice.invoice_number}.pdf`, 'application/pdf'],
        [`${invoice.invoice_number}-cii.xml`, 'application/xml'],
      ]);
      expect(mail!.attachments[0]!.content.subarray(0, 5).toString('latin1')).toBe('%PDF-');
      expect(mail!.text).toContain(invoice.invoice_number);

      // A paid invoice may still be sent (a copy); a void one not.
      const voided = await invoiceOrder(key(), (await confirmedOrder(key(), posters(11))).id);
      await call('POST', `/v1/invoices/${voided.id}/void`, { key: key() });
      expect((await call('POST', `/v1/invoices/${voided.id}/send`, { key: key() })).status).toBe(409);
    });
  });

  it('keeps test and live numbering apart', async () => {
    const shop = await freshShop('Modes Shop');
    await enableInvoicing(shop.accountId);
    const issue = async (secret: string) => {
      const buyer = await billableCustomer(secret);
      const response = await call('POST', '/v1/invoices', {
        key: secret,
        body: { customer_id: buyer.id, items: [{ description: 'Work', quantity: 1, unit_price: 10 }] },
      });
      expect(response.status).toBe(201);
      return response.body.data;
    };
    expect(numberOf(await issue(shop.secretTest))).toBe(1);
    expect(numberOf(await issue(shop.secretLive))).toBe(1);
    expect(inject('fixtures').api).toBeTruthy();
  });
});

/**
 * Invoice lists by cursor (`starting_after=<invoice id>`) over 1,000 invoices written straight into
 * the table as their creation writes them (plus one issued over HTTP, their template): every
 * filter is walked to its end, each page reading the cursor invoice, its own keys and one more, its
 * items and its total — counted by the local gateway's DynamoDB counters — however deep it is.
 */
describe('invoice lists by cursor', () => {
  const BULK = 1000;
  const STATUSES = ['open', 'sent', 'paid', 'void'] as const;
  const start = Date.parse('2026-03-01T00:00:00.000Z');
  const today = new Date().toISOString().slice(0, 10);
  const dayOffset = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
  let shop: Shop;
  let buyers: { id: number; name: string; email: string }[];
  let records: InvoiceRecord[];
  /** The invoices of the order `ORDER_ID` (only written: the order itself need not exist for its list). */
  const ORDER_ID = 4242;

  beforeAll(async () => {
    shop = await freshShop('Invoice Cursors');
    await enableInvoicing(shop.accountId);
    buyers = [await billableCustomer(shop.secretTest), await billableCustomer(shop.secretTest)];
    const issued = await call('POST', '/v1/invoices', {
      key: shop.secretTest,
      body: { customer_id: buyers[0]!.id, due_days: 3, items: [{ description: 'Work', quantity: 1, unit_price: 10 }] },
    });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const template = invoiceFromItem((await storedItem(invoiceKeys.invoice(shop.tenant, issued.body.data.id)))!);
    // Ids after the template's, created one second apart (in id order), due dates in another order, half of them past.
    const made = Array.from({ length: BULK }, (_, index): InvoiceRecord => {
      const id = template.id + 1 + index;
      const status = STATUSES[id % 4]!;
      const buyer = buyers[id % 3 === 0 ? 1 : 0]!;
      const createdAt = new Date(start + id * 1000).toISOString();
      return {
        ...template,
        id,
        invoice_number: `INV-2026-${String(id).padStart(6, '0')}`,
        status,
        customer: { ...template.customer, id: buyer.id, name: buyer.name, email: buyer.email },
        order_id: index >= 500 && index < 512 ? ORDER_ID : null,
        order_number: index >= 500 && index < 512 ? 'ORD-2026-004242' : null,
        due_date: dayOffset(((id * 37) % 60) - 30),
        amount_paid: status === 'paid' ? template.total : 0,
        amount_due: status === 'paid' ? 0 : template.total,
        paid_at: status === 'paid' ? createdAt : null,
        voided_at: status === 'void' ? createdAt : null,
        created_at: createdAt,
        updated_at: createdAt,
      };
    });
    records = [template, ...made];
    const counters = new Map<string, number>([[INVOICES, records.length]]);
    for (const record of records)
      counters.set(invoiceStatusCounter(record.status), (counters.get(invoiceStatusCounter(record.status)) ?? 0) + 1);
    await batchWriteAll([
      ...made.flatMap((record) =>
        invoiceCreation(shop.tenant, record)
          .flatMap((item) => (item.Put ? [item.Put.Item as Record<string, unknown>] : []))
          // The unpaid list holds open and sent invoices only (paying or voiding deletes the entry).
          .filter((item) => isUnpaid(record.status) || item.sk !== invoiceKeys.listEntry(shop.tenant, record.id, 'UNPAID').sk)
          .map(putRequest),
      ),
      ...[...counters].map(([counter, total]) => putRequest({ ...tenantKeys.total(shop.tenant, counter), total })),
    ]);
  }, 120_000);

  const created = (invoice: InvoiceRecord) => createdSortKey(invoice.created_at, invoice.id);
  const due = (invoice: InvoiceRecord) => dueSortKey(invoice.due_date, invoice.created_at, invoice.id);
  const newestFirst = (invoices: InvoiceRecord[]) => invoices.toSorted((a, b) => (created(a) < created(b) ? 1 : -1)).map(({ id }) => id);
  const earliestDue = (invoices: InvoiceRecord[]) => invoices.toSorted((a, b) => (due(a) < due(b) ? -1 : 1)).map(({ id }) => id);

  async function list(path: `/v1/invoices${Query}`, key = shop.secretTest) {
    const response = await call('GET', path, { key });
    expect(response.status, `${path}: ${JSON.stringify(response.body)}`).toBe(200);
    return { body: response.body, work: dynamoDbWork(response) };
  }

  /**
   * Walks a list by cursor to its end and answers the ids in the order served. Every page reads
   * the cursor invoice (one GetItem), its keys and one more (one Query), its items (one
   * BatchGetItem) and its total (a counter, or a count of at most `counted` keys); a customer's
   * list reads the customer too (with the cursor invoice: one BatchGetItem). An order's list is
   * read whole (`whole`: its keys and items) whatever the page.
   */
  const walk = (path: string, { perPage = 100, counted = 0, customer = false, whole = 0 } = {}) =>
    walkByCursor(
      `${path}${path.includes('?') ? '&' : '?'}per_page=${perPage}`,
      shop.secretTest,
      { calls: 4, items: whole ? 1 + 2 * whole : 1 + perPage + 1 + perPage + Math.max(1, counted) + (customer ? 1 : 0) },
      50,
    );

  it('walks every list to its end: each invoice once, in the list order, each page reading only its own keys', async () => {
    const [a, b] = buyers.map((buyer) => records.filter((invoice) => invoice.customer.id === buyer.id));
    expect(await walk('/v1/invoices')).toEqual(newestFirst(records));
    expect(await walk('/v1/invoices?status=paid', { perPage: 37 })).toEqual(newestFirst(records.filter((i) => i.status === 'paid')));
    expect(await walk(`/v1/invoices?customer_id=${b![0]!.customer.id}`, { counted: b!.length })).toEqual(newestFirst(b!));
    const aSent = a!.filter((invoice) => invoice.status === 'sent');
    expect(await walk(`/v1/invoices?customer_id=${a![0]!.customer.id}&status=sent`, { counted: aSent.length })).toEqual(newestFirst(aSent));
    expect(await walk(`/v1/customers/${a![0]!.customer.id}/invoices`, { counted: a!.length, customer: true })).toEqual(newestFirst(a!));
    const dueBefore = records.filter((invoice) => invoice.due_date < dayOffset(10));
    expect(await walk(`/v1/invoices?due_before=${dayOffset(10)}`, { counted: TOTAL_CAP })).toEqual(earliestDue(dueBefore));
    const overdue = records.filter((invoice) => isUnpaid(invoice.status) && invoice.due_date < today);
    expect(overdue.length).toBeGreaterThan(100);
    expect(await walk('/v1/invoices?overdue=true', { counted: overdue.length })).toEqual(earliestDue(overdue));
  });

  it('reads a deep page by cursor at the cost of the first, where its page number reads every key before it', async () => {
    const all = newestFirst(records);
    const byNumber = await list('/v1/invoices?per_page=100&page=9');
    const byCursor = await list(`/v1/invoices?per_page=100&starting_after=${all[799]}`);
    expect(byCursor.body.data).toEqual(byNumber.body.data);
    expect(byCursor.body.data.map((invoice: { id: number }) => invoice.id)).toEqual(all.slice(800, 900));
    expect(byCursor.body.pagination).toEqual({
      page: 1,
      per_page: 100,
      total: records.length,
      total_pages: Math.ceil(records.length / 100),
      total_capped: false,
      has_more: true,
      next_cursor: String(all[899]),
    });
    // The cursor invoice, the page's 100 keys and one more, its 100 items, the counter.
    expect(byCursor.work.commands.toSorted()).toEqual(['BatchGetItem[100]', 'GetItem[1]', 'GetItem[1]', 'Query[101]']);
    // Page 9 reads the 800 keys before it too.
    expect(byNumber.work.items, byNumber.work.commands.join(',')).toBeGreaterThanOrEqual(900);
  });

  it("pages an order's invoices (read whole, at most 100) by cursor too", async () => {
    const ofOrder = records.filter((invoice) => invoice.order_id === ORDER_ID);
    const whole = ofOrder.length;
    expect(await walk(`/v1/invoices?order_id=${ORDER_ID}`, { perPage: 5, whole })).toEqual(newestFirst(ofOrder));
    const voided = ofOrder.filter((invoice) => invoice.status === 'void');
    expect(await walk(`/v1/invoices?order_id=${ORDER_ID}&status=void`, { perPage: 1, whole })).toEqual(newestFirst(voided));
    // The cursor need not match the filter: the void ones created before the newest invoice of the order.
    const page = await list(`/v1/invoices?order_id=${ORDER_ID}&status=void&starting_after=${newestFirst(ofOrder)[0]}`);
    expect(page.body.data.map((invoice: { id: number }) => invoice.id)).toEqual(newestFirst(voided));
    expect(page.body.pagination).toMatchObject({ total: voided.length, has_more: false, next_cursor: null });
  });

  it('keeps the place of an invoice that left the list between two pages (voided: out of the open list; paid: out of the overdue list)', async () => {
    const open = newestFirst(records.filter((invoice) => invoice.status === 'open'));
    const first = await list('/v1/invoices?status=open&per_page=5');
    expect(first.body.data.map((invoice: { id: number }) => invoice.id)).toEqual(open.slice(0, 5));
    const overdue = earliestDue(records.filter((invoice) => isUnpaid(invoice.status) && invoice.due_date < today));
    const late = await list('/v1/invoices?overdue=true&per_page=5');
    expect(late.body.data.map((invoice: { id: number }) => invoice.id)).toEqual(overdue.slice(0, 5));
    const [voided, paid] = [open[4]!, overdue[4]!];
    expect(voided).not.toBe(paid);
    const voiding = await call('POST', `/v1/invoices/${voided}/void`, { key: shop.secretTest });
    expect(voiding.status, JSON.stringify(voiding.body)).toBe(200);
    const { amount_due } = (await call('GET', `/v1/invoices/${paid}`, { key: shop.secretTest })).body.data;
    const paying = await call('POST', `/v1/invoices/${paid}/payments`, {
      key: shop.secretTest,
      body: { amount: amount_due, method: 'cash' },
    });
    expect(paying.status, JSON.stringify(paying.body)).toBe(201);
    const next = await list(`/v1/invoices?status=open&per_page=5&starting_after=${first.body.pagination.next_cursor}`);
    expect(next.body.data.map((invoice: { id: number }) => invoice.id)).toEqual(
      open
        .slice(5, 11)
        .filter((id) => id !== paid)
        .slice(0, 5),
    );
    const later = await list(`/v1/invoices?overdue=true&per_page=5&starting_after=${late.body.pagination.next_cursor}`);
    expect(later.body.data.map((invoice: { id: number }) => invoice.id)).toEqual(
      overdue
        .slice(5, 11)
        .filter((id) => id !== voided)
        .slice(0, 5),
    );
  });

  it("refuses a cursor the tenant does not have (another account's or mode's id) and a cursor with a page number", async () => {
    const other = await freshShop('Invoice Cursors Elsewhere');
    await enableInvoicing(other.accountId);
    const buyer = await billableCustomer(other.secretTest);
    const issue = (key: string, customerId: number) =>
      call('POST', '/v1/invoices', {
        key,
        body: { customer_id: customerId, items: [{ description: 'Work', quantity: 1, unit_price: 10 }] },
      });
    expect((await issue(other.secretTest, buyer.id)).status).toBe(201);
    // Id 1 exists in both accounts; the other one's is newer than every invoice here.
    const own = await list('/v1/invoices?starting_after=1&per_page=1', other.secretTest);
    expect(own.body).toMatchObject({ data: [], pagination: { total: 1, has_more: false, next_cursor: null } });
    for (const [path, field, key] of [
      [`/v1/invoices?starting_after=${BULK + 5}`, 'starting_after', shop.secretTest],
      [`/v1/invoices?starting_after=5`, 'starting_after', other.secretTest],
      ['/v1/invoices?starting_after=1', 'starting_after', shop.secretLive],
      [`/v1/customers/${buyers[0]!.id}/invoices?starting_after=${BULK + 5}`, 'starting_after', shop.secretTest],
      ['/v1/invoices?starting_after=5&page=2', 'page', shop.secretTest],
      [`/v1/customers/${buyers[0]!.id}/invoices?starting_after=5&page=2`, 'page', shop.secretTest],
      ['/v1/invoices?starting_after=inv_5', 'starting_after', shop.secretTest],
    ] as const) {
      const response = await call('GET', path, { key });
      expect(response.status, path).toBe(422);
      expect(
        response.body.error.details!.map((detail: { field: string }) => detail.field),
        path,
      ).toEqual([field]);
    }
    const unknown = await call('GET', `/v1/invoices?starting_after=${BULK + 5}`, { key: shop.secretTest });
    expect(unknown.body.error.details![0]!.message).toBe(`No invoice with id ${BULK + 5}`);
  });
});
