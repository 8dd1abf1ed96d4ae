import { randomUUID } from 'node:crypto';
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { incrementCounter } from '#shared/db/counters';
import { commitInTurn, type TurnTiming } from '#shared/db/gap-free';
import { gapFreeKeys, invoiceKeys, quoteKeys, type ItemKey } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { ServiceUnavailableError } from '#shared/errors';
import { toErrorResult } from '#shared/http/error-mapping';
import { call } from '#test/support/http';
import { billableCustomer, enableInvoicing } from '#test/support/invoices';
import { newOrder, newProduct, putOrder } from '#test/support/orders';
import { freshShop, type Shop } from '#test/support/shop';

const stored = async (key: ItemKey) =>
  (await dynamo().send(new GetCommand({ TableName: tableName(), Key: key, ConsistentRead: true }))).Item;

const numberOf = (document: { invoice_number?: string; quote_number?: string }) =>
  Number((document.invoice_number ?? document.quote_number)!.split('-')[2]);

const consecutive = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

/** The counter after a burst: every number taken by a document, every ticket's turn over (none left waiting or stalled). */
async function expectSettled(counter: ItemKey, numbers: number, tickets: number) {
  const item = await stored(counter);
  expect({ value: Number(item?.value ?? 0), served: item?.served }).toEqual({ value: numbers, served: tickets });
  expect(item?.skipped).toBeUndefined();
  expect((await stored(gapFreeKeys.tickets(counter)))?.value).toBe(tickets);
}

/** Gap-free numbers under load: creates of one tenant commit in turn, each with the next number. */
describe('gap-free numbers in turn', () => {
  let shop: Shop;
  let buyer: { id: number };
  let item: { id: number };
  const year = new Date().getUTCFullYear();

  const lineInvoice = (key: string, customerId: number) =>
    call('POST', '/v1/invoices', {
      key,
      body: { customer_id: customerId, items: [{ description: 'Design', quantity: 1, unit_price: 10 }] },
    });

  beforeAll(async () => {
    shop = await freshShop('Burst Shop');
    await enableInvoicing(shop.accountId);
    buyer = await billableCustomer(shop.secretTest);
    item = await newProduct(shop.secretTest);
    // The handlers loaded once before the bursts (the local gateway imports a route's module on its first request).
    expect((await lineInvoice(shop.secretTest, buyer.id)).status).toBe(201);
  });

  it('gives fifty concurrent invoices of one tenant fifty consecutive numbers, every one 201', async () => {
    const own = await freshShop('Fifty Invoices');
    await enableInvoicing(own.accountId);
    const customer = await billableCustomer(own.secretTest);
    const responses = await Promise.all(Array.from({ length: 50 }, () => lineInvoice(own.secretTest, customer.id)));
    expect(
      responses.filter((response) => response.status !== 201).map((response) => `${response.status} ${JSON.stringify(response.body)}`),
    ).toEqual([]);
    expect(responses.map((response) => numberOf(response.body.data)).sort((a, b) => a - b)).toEqual(consecutive(50));
    expect(new Set(responses.map((response) => response.body.data.invoice_number)).size).toBe(50);
    await expectSettled(invoiceKeys.numberSequence(own.tenant, year), 50, 50);
    expect((await call('GET', '/v1/invoices?per_page=100', { key: own.secretTest })).body.pagination.total).toBe(50);
  });

  it('gives thirty concurrent quotes of one tenant thirty consecutive numbers', async () => {
    const responses = await Promise.all(
      Array.from({ length: 30 }, () =>
        call('POST', '/v1/quotes', {
          key: shop.secretTest,
          body: { customer_id: buyer.id, items: [{ product_id: item.id, quantity: 1 }] },
        }),
      ),
    );
    expect(
      responses.filter((response) => response.status !== 201).map((response) => `${response.status} ${JSON.stringify(response.body)}`),
    ).toEqual([]);
    expect(responses.map((response) => numberOf(response.body.data)).sort((a, b) => a - b)).toEqual(consecutive(30));
    await expectSettled(quoteKeys.numberSequence(shop.tenant, year), 30, 30);
  });

  it('goes on past creates refused in their turn: orders invoiced twice at once answer one 201 and one 409, the others keep the sequence unbroken', async () => {
    const own = await freshShop('Refusals In Turn');
    await enableInvoicing(own.accountId);
    const customer = await billableCustomer(own.secretTest);
    const product = await newProduct(own.secretTest);
    const orders = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const order = await newOrder(own.secretTest, { customer_id: customer.id, items: [{ product_id: product.id, quantity: 1 }] });
        expect((await putOrder(own.secretTest, order.id, { status: 'confirmed' })).status).toBe(200);
        return order;
      }),
    );
    const twice = orders.flatMap((order) =>
      [1, 2].map(() => call('POST', '/v1/invoices', { key: own.secretTest, body: { order_id: order.id } })),
    );
    const lines = Array.from({ length: 20 }, () => lineInvoice(own.secretTest, customer.id));
    const [ofOrders, ofLines] = await Promise.all([Promise.all(twice), Promise.all(lines)]);
    for (let index = 0; index < orders.length; index++) {
      const pair = ofOrders.slice(index * 2, index * 2 + 2).map((response) => response.status);
      expect(pair.sort(), `order ${orders[index]!.id}`).toEqual([201, 409]);
    }
    expect(ofLines.map((response) => response.status)).toEqual(Array(20).fill(201));
    const issued = [...ofOrders, ...ofLines].filter((response) => response.status === 201);
    expect(issued.map((response) => numberOf(response.body.data)).sort((a, b) => a - b)).toEqual(consecutive(30));
    // Forty tickets, forty turns over: the ten refused creates released theirs without a number.
    await expectSettled(invoiceKeys.numberSequence(own.tenant, year), 30, 40);
    const after = await lineInvoice(own.secretTest, customer.id);
    expect(after.status).toBe(201);
    expect(numberOf(after.body.data)).toBe(31);
  });
});

/** The turns themselves, on a counter of a tenant of the test's own (the callbacks write only the number). */
describe('commitInTurn', () => {
  const quick: TurnTiming = { waitMs: 5_000, stallMs: 300 };
  const counterOf = (): ItemKey => {
    const tenant: Tenant = { accountId: `acct_turns_${randomUUID()}`, mode: 'test' };
    return invoiceKeys.numberSequence(tenant, 2026);
  };
  const numbered = (number: number) => ({ parts: [], result: number });

  it('takes over the turn of a holder that took a ticket and never came back, without spending a number', async () => {
    const counter = counterOf();
    // The crashed holder: ticket 1, then nothing.
    expect(await incrementCounter(gapFreeKeys.tickets(counter))).toBe(1);
    expect(await commitInTurn(counter, 'invoice number', numbered, { timing: quick })).toBe(1);
    // Its turn passed without a number: the next writer's number is 1, and both turns are over.
    await expectSettled(counter, 1, 2);
    expect(await commitInTurn(counter, 'invoice number', numbered, { timing: quick })).toBe(2);
  });

  it('refuses the late commit of a holder whose turn was taken over; it queues again and takes the next number, none twice', async () => {
    const counter = counterOf();
    const built: number[] = [];
    let paused = false;
    // The slow holder: its first commit waits longer than the stall time (a Lambda frozen mid-request).
    const slow = commitInTurn(
      counter,
      'invoice number',
      async (number) => {
        built.push(number);
        if (!paused) {
          paused = true;
          await new Promise((resolve) => setTimeout(resolve, 3 * quick.stallMs));
        }
        return numbered(number);
      },
      { timing: quick },
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    const other = commitInTurn(counter, 'invoice number', numbered, { timing: quick });
    const [slowNumber, otherNumber] = await Promise.all([slow, other]);
    expect(otherNumber).toBe(1);
    expect(slowNumber).toBe(2);
    // The slow holder built number 1 in its lost turn, then 2 with its fresh ticket.
    expect(built).toEqual([1, 2]);
    await expectSettled(counter, 2, 3);
  });

  it('gives up after its wait with 503 and Retry-After, and its ticket is skipped at once by the writers after it', async () => {
    const counter = counterOf();
    await incrementCounter(gapFreeKeys.tickets(counter)); // ticket 1: a holder that never comes back
    const impatient = await commitInTurn(counter, 'invoice number', numbered, { timing: { waitMs: 100, stallMs: 60_000 } }).catch(
      (error: unknown) => error,
    );
    expect(impatient).toBeInstanceOf(ServiceUnavailableError);
    const answer = toErrorResult(impatient, 'request-1');
    expect(answer.statusCode).toBe(503);
    expect(Number(answer.headers?.['Retry-After'])).toBeGreaterThanOrEqual(1);
    expect(JSON.parse(answer.body).error.code).toBe('service_unavailable');
    expect([...((await stored(counter))?.skipped as Set<number>)]).toEqual([2]);
    // The next writer waits out ticket 1's stall, then passes over ticket 2 without a stall of its own.
    expect(await commitInTurn(counter, 'invoice number', numbered, { timing: quick })).toBe(1);
    await expectSettled(counter, 1, 3);
  });

  it('releases the turn of a refused commit without taking the number', async () => {
    const counter = counterOf();
    const refusal = new Error('the order was invoiced meanwhile');
    await expect(
      commitInTurn(
        counter,
        'invoice number',
        () => {
          throw refusal;
        },
        { timing: quick },
      ),
    ).rejects.toBe(refusal);
    await expectSettled(counter, 0, 1);
    expect(await commitInTurn(counter, 'invoice number', numbered, { timing: quick })).toBe(1);
  });
});
