/**
 * A business day with the SDK: register a webhook receiver, create a customer, a product and an
 * order, page through every order, and receive the `order.created` delivery — verified, while a
 * tampered copy of it is refused with 401.
 *
 *   PRINT_SHOP_URL=http://127.0.0.1:3000 PRINT_SHOP_KEY=sk_test_… npx tsx sdk/examples/business-day.ts
 *
 * The receiver is a plain node:http server on 127.0.0.1 (the API must be able to reach it: the local
 * stack can; a deployed API refuses private addresses). It prints what it did as one JSON line.
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import {
  createPrintShop,
  customersCreate,
  ordersCreate,
  ordersList,
  productsCreate,
  verifyWebhook,
  webhooksCreate,
  webhooksDelete,
  WebhookVerificationError,
  type WebhookEvent,
} from '../src';

export interface BusinessDayOptions {
  baseUrl: string;
  apiKey: string;
  /** How long to wait for the delivery (default 30 s). */
  deliveryTimeoutMs?: number;
}

export interface BusinessDay {
  customerId: number;
  orderId: number;
  orderNumber: string;
  /** Every order id the pagination helper walked, in list order, and the pages it took. */
  orderIds: number[];
  pages: number;
  /** The delivery the receiver verified and accepted. */
  delivered: { deliveryId: string; event: WebhookEvent['event']; orderId: number };
  /** What the receiver answered a tampered copy of that delivery, and why it refused it. */
  tampered: { status: number; reason: string };
}

interface Delivery {
  rawBody: string;
  headers: IncomingHttpHeaders;
}

/** A receiver that verifies every request: 200 with the event, 401 with the reason of a refusal. */
async function startReceiver(secretOf: () => string) {
  const verified: { event: WebhookEvent; delivery: Delivery }[] = [];
  const waiting: (() => void)[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const delivery = { rawBody: Buffer.concat(chunks).toString('utf8'), headers: request.headers };
      try {
        const event = verifyWebhook(delivery.rawBody, delivery.headers, secretOf());
        verified.push({ event, delivery });
        response.writeHead(200).end('ok');
        waiting.splice(0).forEach((wake) => wake());
      } catch (error) {
        if (!(error instanceof WebhookVerificationError)) throw error;
        response.writeHead(401, { 'Content-Type': 'text/plain' }).end(error.reason);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    /** The first verified delivery that `matches`, within `timeoutMs`. */
    async first(matches: (event: WebhookEvent) => boolean, timeoutMs: number) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = verified.find(({ event }) => matches(event));
        if (found) return found;
        const left = deadline - Date.now();
        if (left <= 0) throw new Error('no verified delivery arrived in time');
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, left);
          waiting.push(() => {
            clearTimeout(timer);
            resolve();
          });
        });
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export async function businessDay(options: BusinessDayOptions): Promise<BusinessDay> {
  const shop = createPrintShop({ baseUrl: options.baseUrl, apiKey: options.apiKey });
  const { client } = shop;
  let secret = '';
  const receiver = await startReceiver(() => secret);
  let webhookId: number | undefined;
  try {
    // 1. The receiver, for new orders. The secret is shown once, on creation.
    const { data: webhook } = await webhooksCreate({
      client,
      body: { url: receiver.url, events: ['order.created'], description: 'business-day example' },
      throwOnError: true,
    });
    secret = webhook.data.secret;
    webhookId = webhook.data.id;

    // 2. A customer, a product and an order (each POST with an Idempotency-Key: safe to retry).
    const { data: customer } = await customersCreate({
      client,
      body: { name: 'Anna Schmidt', email: `anna+${Date.now()}@example.com` },
      headers: shop.idempotencyKey(),
      throwOnError: true,
    });
    const { data: product } = await productsCreate({
      client,
      body: { name: 'Poster A2', category: 'posters', base_price: 1 },
      headers: shop.idempotencyKey(),
      throwOnError: true,
    });
    const { data: order } = await ordersCreate({
      client,
      body: { customer_id: customer.data.id, items: [{ product_id: product.data.id, quantity: 25 }] },
      headers: shop.idempotencyKey(),
      throwOnError: true,
    });

    // 3. Every order, two a page: the helper follows pagination.next_cursor.
    const orderIds: number[] = [];
    let pages = 0;
    const everyOrder = shop.paginate(
      (query) => {
        pages++;
        return ordersList({ client, query, throwOnError: true });
      },
      { per_page: 2 },
    );
    for await (const listed of everyOrder) orderIds.push(listed.id);

    // 4. The order.created delivery, verified by the receiver; then a tampered copy of it, refused.
    const { event, delivery } = await receiver.first(
      (candidate) => candidate.event === 'order.created' && candidate.data.order.id === order.data.id,
      options.deliveryTimeoutMs ?? 30_000,
    );
    if (event.event !== 'order.created') throw new Error(`unexpected event ${event.event}`);
    const tamperedBody = delivery.rawBody.replace(`"id":${order.data.id},`, `"id":${order.data.id + 1},`);
    const tamperedAnswer = await fetch(receiver.url, {
      method: 'POST',
      headers: Object.fromEntries(
        Object.entries(delivery.headers).flatMap(([name, value]) =>
          typeof value === 'string' && name !== 'content-length' ? [[name, value]] : [],
        ),
      ),
      body: tamperedBody,
    });

    return {
      customerId: customer.data.id,
      orderId: order.data.id,
      orderNumber: order.data.order_number,
      orderIds,
      pages,
      delivered: { deliveryId: event.id, event: event.event, orderId: event.data.order.id },
      tampered: { status: tamperedAnswer.status, reason: await tamperedAnswer.text() },
    };
  } finally {
    if (webhookId !== undefined) await webhooksDelete({ client, path: { id: String(webhookId) } });
    await receiver.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const baseUrl = process.env.PRINT_SHOP_URL;
  const apiKey = process.env.PRINT_SHOP_KEY;
  if (!baseUrl || !apiKey) {
    console.error('Set PRINT_SHOP_URL (e.g. http://127.0.0.1:3000) and PRINT_SHOP_KEY (a secret key).');
    process.exit(2);
  }
  console.log(JSON.stringify(await businessDay({ baseUrl, apiKey })));
}
