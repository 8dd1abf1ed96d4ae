/**
 * The SDK's example program (sdk/examples/business-day.ts) run as a program against the local
 * stack, the way an integrator runs it: it registers a receiver, creates a customer, a product and
 * an order through the generated operations, pages through every order with the pagination
 * helper, verifies the real `order.created` delivery with `verifyWebhook` and refuses a tampered
 * copy of it. It runs in a child process (tsx), as `npx tsx sdk/examples/business-day.ts` does;
 * the SDK's typed client is generated first by `npm run sdk` (docs/sdk.md).
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '#test/support/http';
import { newCustomer, newOrder, newProduct } from '#test/support/orders';
import { freshShop, type Shop } from '#test/support/shop';
import { CLI_TEST_TIMEOUT_MS } from '#test/support/timeouts';

const root = resolve(import.meta.dirname, '../..');
const example = resolve(root, 'sdk/examples/business-day.ts');

/** What the example prints (its `BusinessDay`), read as JSON. */
interface BusinessDay {
  customerId: number;
  orderId: number;
  orderNumber: string;
  orderIds: number[];
  pages: number;
  delivered: { deliveryId: string; event: string; orderId: number };
  tampered: { status: number; reason: string };
}

function runExample(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, ['--import', 'tsx', example], { cwd: root, env: { ...process.env, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', fail);
    child.once('close', (code) => done({ code, stdout, stderr }));
  });
}

describe('the SDK example program, against the local stack', () => {
  let shop: Shop;
  const seeded: number[] = [];

  beforeAll(async () => {
    expect(existsSync(resolve(root, 'sdk/src/generated/index.ts')), 'the SDK client is generated: run `npm run sdk`').toBe(true);
    shop = await freshShop('SDK example');
    const customer = await newCustomer(shop.secretTest);
    const product = await newProduct(shop.secretTest);
    for (let i = 0; i < 3; i++) {
      seeded.push((await newOrder(shop.secretTest, { customer_id: customer.id, items: [{ product_id: product.id, quantity: 1 }] })).id);
    }
  });

  it(
    'creates a customer and an order, pages through every order, verifies the real delivery and refuses a tampered one',
    async () => {
      const run = await runExample({ PRINT_SHOP_URL: inject('fixtures').api, PRINT_SHOP_KEY: shop.secretTest });
      expect(run.code, run.stderr).toBe(0);
      const day = JSON.parse(run.stdout.trim().split('\n').at(-1)!) as BusinessDay;

      // The order it created is stored, for the customer it created.
      const order = await call('GET', `/v1/orders/${day.orderId}`, { key: shop.secretTest });
      expect(order.status).toBe(200);
      expect(order.body.data.order_number).toBe(day.orderNumber);
      expect(order.body.data.customer.id).toBe(day.customerId);

      // The pagination helper walked the whole list, two a page, each order once.
      expect([...day.orderIds].sort((a, b) => a - b)).toEqual([...seeded, day.orderId].sort((a, b) => a - b));
      expect(day.pages).toBe(2);

      // The receiver verified the service's real delivery of that order, and refused the tampered copy.
      expect(day.delivered).toEqual({ deliveryId: expect.stringMatching(/^wh_/), event: 'order.created', orderId: day.orderId });
      expect(day.tampered).toEqual({ status: 401, reason: 'signature_mismatch' });

      // It removed its webhook registration when it finished.
      const webhooks = await call('GET', '/v1/webhooks', { key: shop.secretTest });
      expect(webhooks.status).toBe(200);
      expect(webhooks.body.data).toEqual([]);
    },
    CLI_TEST_TIMEOUT_MS,
  );
});
