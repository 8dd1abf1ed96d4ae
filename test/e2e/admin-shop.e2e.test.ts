/**
 * The admin panel's shop's day end to end, in headless Chromium against the local stack: an order
 * created through the API is confirmed in the panel, its jobs moved to completed on the production
 * board (buttons, the keyboard alone, and a drag), invoiced (the PDF inline), paid, shipped in test
 * mode and delivered by the simulate control — and every step's event reaches the webhook. A key
 * with orders:read only sees orders without buttons and a clear message elsewhere; every screen
 * fits 390 px. A file goes from the panel's page straight to the files bucket (presigned POST, the
 * bucket's CORS rule). Screenshots go to docs/screenshots/ with `npm run screenshots`.
 */
import { createHash } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { BodyOf } from '#test/support/api-types';
import { chromiumAvailable, DESKTOP, fitsWidth, launch, newContext, PHONE, screenshot, watchErrors } from './browser';
import { useReceiver } from '#test/support/receiver';
import './fixtures';

const { origin, day } = inject('e2e');
const admin = `${origin}/admin`;

let browser: Browser;

beforeAll(async () => {
  if (!chromiumAvailable) return;
  browser = await launch();
  // Invoices need the seller's details (docs/invoices.md); a machine runs the jobs.
  await api('PUT', '/v1/account', {
    company: {
      legal_name: 'Druckerei am Hafen GmbH',
      address: { name: 'Druckerei am Hafen GmbH', line1: 'Kaiserkai 1', postal_code: '20457', city: 'Hamburg', country: 'DE' },
      vat_id: 'DE123456789',
      iban: 'DE89 3704 0044 0532 0130 00',
      email: 'billing@hafen-druck.example',
      phone: '+49 40 1234567',
    },
  });
  await api('POST', '/v1/production/machines', { name: 'HP Indigo 12000', type: 'digital_press', speed_per_hour: 3000, setup_minutes: 15 });
  await api('POST', '/v1/production/machines', { name: 'Polar cutter', type: 'cutter', speed_per_hour: 20000, setup_minutes: 5 });
});

afterAll(async () => {
  await browser?.close();
});

async function api<const Method extends string, const Path extends string>(
  method: Method,
  path: Path,
  body?: unknown,
  key = day.secretTest,
): Promise<BodyOf<Method, Path>> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as BodyOf<Method, Path>;
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(json)}`);
  return json;
}

let counter = 0;
/** A customer, a product and an order of `lines` lines, due yesterday (so the board shows it overdue). */
async function newOrder(lines = 2) {
  counter++;
  const customer = (await api('POST', '/v1/customers', { name: 'Anna Schmidt', email: `anna.${counter}.${Date.now()}@example.com` })).data;
  const product = (await api('POST', '/v1/products', { name: 'Poster A2', category: 'posters', base_price: 1.5 })).data;
  const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
  const items = [
    { product_id: product.id, quantity: 250, description: 'Poster A2, 170 g gloss' },
    { product_id: product.id, quantity: 100, description: 'Poster A2, matt (proof run)' },
  ].slice(0, lines);
  const order = await api('POST', '/v1/orders', {
    customer_id: customer.id,
    items,
    shipping_address: { name: 'Anna Schmidt', line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
    due_date: yesterday,
  });
  return order.data as { id: number; order_number: string };
}

async function signIn(page: Page, key: string) {
  await page.goto(admin);
  const field = page.getByLabel('Secret API key');
  await field.fill(key);
  await field.press('Enter');
}

const card = (page: Page, jobId: number) => page.locator(`[data-job-card="${jobId}"]`);
const column = (page: Page, status: string) => page.locator(`[data-column="${status}"]`);

/** Presses Tab until the focused element's accessible name (aria-label or text) starts with `name`. */
async function tabTo(page: Page, name: string) {
  const seen: string[] = [];
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    const focused = (await page.evaluate(
      `(document.activeElement?.getAttribute('aria-label') || document.activeElement?.textContent || '').trim()`,
    )) as string;
    if (focused.startsWith(name)) return;
    seen.push(focused);
  }
  throw new Error(`Tab never reached "${name}" (focused in turn: ${seen.join(' | ')})`);
}

describe.skipIf(!chromiumAvailable)('admin panel: the shop’s day', () => {
  it('confirms, produces, invoices, ships and delivers an order by clicking, at 1280 px', async () => {
    const receiver = await useReceiver({ path: '/hooks/shop' });
    await api('POST', '/v1/webhooks', { url: receiver.url, events: ['*'], description: 'Shop floor display' });
    const order = await newOrder(2);

    const context = await newContext(browser, origin, DESKTOP);
    const page = await context.newPage();
    const errors = watchErrors(page);

    // The panel opens on Orders.
    await signIn(page, day.secretTest);
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    expect(page.url()).toBe(`${admin}/orders`);
    const row = page.locator(`tr[data-order="${order.id}"]`);
    await row.waitFor();
    expect(await row.locator('[data-status]').textContent()).toContain('Pending');
    await page.getByLabel('Status').selectOption('pending');
    await expect.poll(() => page.url()).toContain('status=pending');
    await row.waitFor();
    await screenshot(page, 'orders-list');

    // The order: lines, totals, the allowed moves as buttons.
    await row.getByRole('link', { name: `Order ${order.order_number}` }).click();
    await page.getByRole('heading', { name: order.order_number, level: 1 }).waitFor();
    expect(await page.locator('tr[data-line]').count()).toBe(2);
    expect(await page.locator('.totals').textContent()).toContain('Total');
    await page.getByRole('button', { name: 'Confirm order' }).click();
    await page.getByText(`Order ${order.order_number} is now confirmed.`).waitFor();
    await expect.poll(() => page.locator('tr[data-job]').count()).toBe(2);
    const jobIds = await page.locator('tr[data-job]').evaluateAll((rows) => rows.map((r) => Number(r.getAttribute('data-job'))));
    // A move the API refuses (jobs still open) is shown as its 409, in words.
    await page.getByRole('button', { name: 'Mark in production' }).click();
    await page.getByText('is now in production').waitFor();
    await page.getByRole('button', { name: 'Mark ready' }).click();
    await page.getByText(/^Not possible now:.*open/).waitFor();
    await screenshot(page, 'order-detail');

    // The board: two queued jobs, overdue in words; moves by buttons.
    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Production' }).click();
    await page.getByRole('heading', { name: 'Production', level: 1 }).waitFor();
    const [first, second] = jobIds as [number, number];
    await column(page, 'queued').locator(`[data-job-card="${first}"]`).waitFor();
    expect(await card(page, first).textContent()).toContain('overdue');
    expect(await card(page, first).textContent()).toContain(order.order_number);
    await screenshot(page, 'production-board');

    await card(page, first).getByLabel(`Machine for job ${first}`).selectOption({ label: 'HP Indigo 12000' });
    await page.getByText(`Job ${first} assigned to HP Indigo 12000.`).waitFor();
    await card(page, first)
      .getByRole('button', { name: `Schedule: job ${first}` })
      .click();
    await column(page, 'scheduled').locator(`[data-job-card="${first}"]`).waitFor();
    // A drag to an allowed column moves it too.
    await card(page, first).dragTo(column(page, 'printing'));
    await column(page, 'printing').locator(`[data-job-card="${first}"]`).waitFor();
    for (const [action, status] of [
      ['To finishing', 'finishing'],
      ['To quality check', 'quality_check'],
    ] as const) {
      await card(page, first)
        .getByRole('button', { name: `${action}: job ${first}` })
        .click();
      await column(page, status).locator(`[data-job-card="${first}"]`).waitFor();
    }
    await card(page, first)
      .getByRole('button', { name: `Complete: job ${first}` })
      .click();
    await page.getByText(`moved to completed`).waitFor();
    await expect.poll(() => card(page, first).count()).toBe(0);

    // The second job with the keyboard alone: focus stays on the job as it moves.
    await card(page, second).getByLabel(`Machine for job ${second}`).selectOption({ label: 'HP Indigo 12000' });
    await page.getByText(`Job ${second} assigned`).waitFor();
    await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("data-job-card")')).toBe(String(second));
    for (const [action, status] of [
      ['Schedule', 'scheduled'],
      ['Start printing', 'printing'],
      ['To finishing', 'finishing'],
      ['To quality check', 'quality_check'],
    ] as const) {
      await tabTo(page, `${action}: job ${second}`);
      await page.keyboard.press('Enter');
      await column(page, status).locator(`[data-job-card="${second}"]`).waitFor();
      await expect.poll(() => page.evaluate('document.activeElement?.getAttribute("data-job-card")')).toBe(String(second));
    }
    await tabTo(page, `Complete: job ${second}`);
    await page.keyboard.press('Enter');
    await expect.poll(() => card(page, second).count()).toBe(0);

    // The machine's queue.
    await page.getByRole('link', { name: 'Machines and queues' }).click();
    await page.locator('tr[data-machine]').first().waitFor();
    await screenshot(page, 'machines');
    await page.getByRole('link', { name: 'Queue of HP Indigo 12000' }).click();
    await page.getByRole('heading', { name: 'Queue' }).waitFor();
    await screenshot(page, 'machine-queue');

    // Production done: the order is ready; invoice it.
    await page.goto(`${admin}/orders/${order.id}`);
    await expect.poll(() => page.locator('.overview-title [data-status]').textContent()).toContain('Ready');
    const pdf = page.waitForResponse((response) => /\/v1\/invoices\/\d+\/pdf$/.test(response.url()));
    await page.getByRole('button', { name: 'Create invoice' }).click();
    await page.getByText(/Invoice INV-\d{4}-\d+ issued/).waitFor();
    await page.getByRole('heading', { name: /^INV-/, level: 1 }).waitFor();
    // The PDF inline: a frame on a blob: URL holding the PDF the API answered.
    const frame = page.locator('iframe.document-frame');
    await frame.waitFor();
    const src = (await frame.getAttribute('src'))!;
    expect(src).toMatch(/^blob:/);
    const answer = await pdf;
    expect(answer.status()).toBe(200);
    expect(answer.headers()['content-type']).toBe('application/pdf');
    // The same document, as the API serves it with the key: a PDF.
    const bytes = await fetch(answer.url(), { headers: { Authorization: `Bearer ${day.secretTest}`, Accept: 'application/pdf' } });
    expect(
      Buffer.from(await bytes.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'E-invoice XML (CII)' }).click();
    expect((await download).suggestedFilename()).toMatch(/^INV-.*-cii\.xml$/);
    await screenshot(page, 'invoice-detail');

    await page.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText(/is paid in full/).waitFor();
    expect(await page.locator('.overview-title [data-status]').textContent()).toContain('Paid');
    expect(await page.getByRole('button', { name: 'Void invoice' }).count()).toBe(0);

    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Invoices' }).click();
    await page.getByLabel('Show').selectOption('paid');
    await page.locator('tr[data-invoice]').first().waitFor();
    await screenshot(page, 'invoices-list');

    // Ship it in test mode: the sandbox makes the label; simulate the carrier.
    await page.goto(`${admin}/orders/${order.id}`);
    await page.getByRole('button', { name: 'Create shipment' }).click();
    await page.getByLabel('Weight (g)').fill('');
    await page.getByRole('button', { name: 'Create shipment and label' }).click();
    await page.getByText('Weight (g): a whole number above 0.').waitFor();
    await page.getByLabel('Weight (g)').fill('1320');
    await screenshot(page, 'shipment-form');
    await page.getByRole('button', { name: 'Create shipment and label' }).click();
    await page.getByText(/Shipment \d+ created: its label is ready/).waitFor();
    await page.locator('iframe.document-frame').waitFor();
    await page.locator('#simulate-status').selectOption('in_transit');
    await page.getByPlaceholder('Location (optional)').fill('Hamburg');
    await page.getByRole('button', { name: 'Report status' }).click();
    await expect.poll(() => page.locator('.overview-title [data-status]').textContent()).toContain('In transit');
    await page.locator('#simulate-status').selectOption('delivered');
    await page.getByRole('button', { name: 'Report status' }).click();
    await expect.poll(() => page.locator('.overview-title [data-status]').textContent()).toContain('Delivered');
    await expect.poll(() => page.locator('[data-tracking]').count()).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'shipment-detail');

    // The order is completed, with its history and events.
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: `Order ${order.order_number}` })
      .click();
    await expect.poll(() => page.locator('.overview-title [data-status]').textContent()).toContain('Completed');
    await expect.poll(() => page.locator('tr[data-event="order.completed"]').count()).toBe(1);
    const history = await page.getByRole('list', { name: 'Status history' }).textContent();
    for (const label of ['Pending', 'Confirmed', 'In production', 'Ready', 'Shipped', 'Completed']) expect(history).toContain(label);
    expect(await page.locator('.actions[aria-label="Order status"]').count()).toBe(0);
    await screenshot(page, 'order-completed');

    // Every step reached the webhook.
    const kinds = [
      'order.updated',
      'production.job.created',
      'production.started',
      'production.job.completed',
      'production.completed',
      'invoice.created',
      'invoice.paid',
      'order.shipped',
      'shipment.delivered',
      'order.completed',
    ];
    await expect
      .poll(() => kinds.filter((kind) => !receiver.requests.some((request) => JSON.parse(request.rawBody).event === kind)), {
        timeout: 20_000,
      })
      .toEqual([]);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a key with orders:read only the orders, without buttons, and a clear message elsewhere', async () => {
    const order = await newOrder(1);
    await api('PUT', `/v1/orders/${order.id}`, { status: 'confirmed' });
    const context = await newContext(browser, origin, DESKTOP);
    const page = await context.newPage();
    const errors = watchErrors(page);

    await signIn(page, day.ordersOnly);
    await page.locator(`tr[data-order="${order.id}"]`).waitFor();
    await page.getByRole('link', { name: `Order ${order.order_number}` }).click();
    await page.getByRole('heading', { name: order.order_number, level: 1 }).waitFor();
    await page.getByText('This key can read orders but not change them').waitFor();
    expect(await page.getByRole('button', { name: /Confirm|Cancel order|Mark|Create/ }).count()).toBe(0);
    await page.getByText('This key cannot see production jobs and machines.').waitFor();
    await page.getByText('This key cannot see invoices.').waitFor();
    await page.getByText('This key cannot see shipments.').waitFor();
    await screenshot(page, 'order-read-only');

    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Production' }).click();
    await page.getByText('This key cannot see production jobs and machines.').waitFor();
    expect(await page.locator('.notice').textContent()).toContain('production:read');
    await screenshot(page, 'production-missing-scope');
    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Invoices' }).click();
    await page.getByText('This key cannot see invoices.').waitFor();

    expect(errors).toEqual([]);
    await context.close();
  });

  it('works at 390 px: every new screen fits the width', async () => {
    // State through the API: confirmed, in production (by hand), invoiced, shipped in part.
    const order = await newOrder(2);
    await api('PUT', `/v1/orders/${order.id}`, { status: 'confirmed' });
    await api('PUT', `/v1/orders/${order.id}`, { status: 'in_production' });
    const invoice = (await api('POST', '/v1/invoices', { order_id: order.id })).data;
    const shipment = (
      await api('POST', '/v1/shipments', {
        order_id: order.id,
        carrier: 'sandbox',
        service: 'postnl:standard',
        partial: true,
        parcels: [{ weight_g: 900, length_mm: 300, width_mm: 210, height_mm: 40 }],
      })
    ).data;
    await api('POST', `/v1/shipments/${shipment.id}/simulate`, { status: 'in_transit', location: 'Hamburg' });

    const context = await newContext(browser, origin, PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, day.secretTest);
    await page.locator(`tr[data-order="${order.id}"]`).waitFor();
    await screenshot(page, 'orders-list');
    expect(await fitsWidth(page)).toBe(true);

    await page.goto(`${admin}/orders/${order.id}`);
    await expect.poll(() => page.locator('tr[data-job]').count()).toBe(2);
    await page.locator(`[data-shipment="${shipment.id}"]`).waitFor();
    await screenshot(page, 'order-detail');
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('button', { name: 'Create shipment' }).click();
    await page.getByRole('button', { name: '+ Add parcel' }).click();
    await screenshot(page, 'shipment-form');
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('button', { name: 'Cancel', exact: true }).click();

    await page.goto(`${admin}/production`);
    await page.locator('[data-job-card]').first().waitFor();
    await screenshot(page, 'production-board');
    expect(await fitsWidth(page)).toBe(true);
    // Keyboard at 390 px too: Schedule is a button like any other.
    const job = Number(await page.locator('[data-column="queued"] [data-job-card]').first().getAttribute('data-job-card'));
    await card(page, job).getByLabel(`Machine for job ${job}`).selectOption({ label: 'Polar cutter' });
    await page.getByText(`Job ${job} assigned`).waitFor();
    await card(page, job)
      .getByRole('button', { name: `Schedule: job ${job}` })
      .press('Enter');
    await column(page, 'scheduled').locator(`[data-job-card="${job}"]`).waitFor();

    await page.goto(`${admin}/production/machines`);
    await page.locator('tr[data-machine]').first().waitFor();
    await screenshot(page, 'machines');
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('link', { name: 'Queue of Polar cutter' }).click();
    await page.locator('tr[data-queue-job]').first().waitFor();
    await screenshot(page, 'machine-queue');
    expect(await fitsWidth(page)).toBe(true);

    await page.goto(`${admin}/invoices`);
    await page.locator(`tr[data-invoice="${invoice.id}"]`).waitFor();
    await screenshot(page, 'invoices-list');
    expect(await fitsWidth(page)).toBe(true);

    await page.goto(`${admin}/invoices/${invoice.id}`);
    await page.locator('iframe.document-frame').waitFor();
    await screenshot(page, 'invoice-detail');
    expect(await fitsWidth(page)).toBe(true);
    await page.getByRole('button', { name: 'Void invoice' }).click();
    const dialog = page.getByRole('dialog', { name: 'Void this invoice?' });
    await dialog.waitFor();
    await screenshot(page, 'invoice-void-dialog', { fullPage: false });
    await dialog.getByRole('button', { name: 'Void invoice' }).click();
    await page.getByText(/is void/).waitFor();

    await page.goto(`${admin}/shipments/${shipment.id}`);
    await page.locator('[data-tracking]').first().waitFor();
    await screenshot(page, 'shipment-detail');
    expect(await fitsWidth(page)).toBe(true);

    await page.goto(`${admin}/shipments`);
    await page.locator(`tr[data-shipment="${shipment.id}"]`).waitFor();
    expect(await fitsWidth(page)).toBe(true);

    expect(errors).toEqual([]);
    await context.close();
  });
});

describe.skipIf(!chromiumAvailable)('admin panel: a browser upload', () => {
  it('sends a file from the panel’s page straight to the files bucket with a presigned POST, and the API completes it', async () => {
    // A small PDF (the type is decided by its bytes), declared with its size and SHA-256 as any client does.
    const content = `%PDF-1.4\n% artwork uploaded from the admin panel's origin, ${Date.now()}\n%%EOF\n`;
    const bytes = new TextEncoder().encode(content);
    const sha256 = createHash('sha256').update(bytes).digest('hex');
    const declared = await api('POST', '/v1/files/uploads', {
      filename: 'flyer.pdf',
      content_type: 'application/pdf',
      size: bytes.length,
      sha256,
    });
    const { file, upload } = declared.data;
    expect(file.status).toBe('pending_upload');

    const context = await newContext(browser, origin, DESKTOP);
    const page = await context.newPage();
    const errors = watchErrors(page);
    // The panel's page: its origin and its Content-Security-Policy (connect-src) apply to the fetch below.
    await page.goto(`${admin}/`);
    await page.getByLabel('Secret API key').waitFor();
    const sent = await page.evaluate(
      async ({ url, fields, text }) => {
        const form = new FormData();
        for (const [name, value] of Object.entries(fields)) form.append(name, value);
        form.append('file', new Blob([text], { type: 'application/pdf' }), 'flyer.pdf'); // the file last
        // Cross-origin: the answer is readable only when the bucket's CORS rule allows this origin, ETag only when exposed.
        const response = await fetch(url, { method: 'POST', body: form });
        return { status: response.status, etag: response.headers.get('ETag') };
      },
      { url: upload.url, fields: upload.fields, text: content },
    );
    expect(new URL(upload.url).origin).not.toBe(await page.evaluate('location.origin'));
    expect([201, 204]).toContain(sent.status);
    expect(sent.etag).toMatch(/^"[0-9a-f]{32}"$/);

    const completed = await api('POST', `/v1/files/${file.id}/complete`);
    expect(completed.data).toMatchObject({ id: file.id, status: 'ready', size: bytes.length, sha256 });
    const { url } = (await api('GET', `/v1/files/${file.id}/download?format=url`)).data;
    expect(await (await fetch(url)).text()).toBe(content);

    expect(errors).toEqual([]);
    await context.close();
  });
});

/** A ready file of the day's shop, uploaded as any client does (multipart `POST /v1/files`). */
async function uploadPdf(name: string): Promise<{ id: number; sha256: string }> {
  const form = new FormData();
  form.set('file', new Blob([`%PDF-1.4\n% ${name}, ${Date.now()}\n%%EOF\n`], { type: 'application/pdf' }), name);
  const response = await fetch(`${origin}/v1/files`, {
    method: 'POST',
    headers: { Authorization: `Bearer ${day.secretTest}` },
    body: form,
  });
  const body = (await response.json()) as { data: { id: number; sha256: string; status: string } };
  if (response.status !== 201 || body.data.status !== 'ready')
    throw new Error(`upload ${name}: ${response.status} ${JSON.stringify(body)}`);
  return body.data;
}

describe.skipIf(!chromiumAvailable)('admin panel: proofs', () => {
  it('makes a proof of a line on the order page, marks and filters the waiting job on the board, shows the decision and revokes the link', async () => {
    const [artwork, document] = await Promise.all([uploadPdf('poster-artwork.pdf'), uploadPdf('poster-soft-proof.pdf')]);
    const customer = (await api('POST', '/v1/customers', { name: 'Jonas Weber', email: `jonas.${Date.now()}@example.com` })).data;
    const product = (await api('POST', '/v1/products', { name: 'Poster A1', category: 'posters', base_price: 2.5 })).data;
    const order = (
      await api('POST', '/v1/orders', {
        customer_id: customer.id,
        items: [{ product_id: product.id, quantity: 50, description: 'Poster A1, satin', file_ids: [artwork.id] }],
      })
    ).data;
    await api('PUT', `/v1/orders/${order.id}`, { status: 'confirmed' });

    const context = await newContext(browser, origin, DESKTOP);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, day.secretTest);
    await page.getByRole('heading', { name: 'Orders', level: 1 }).waitFor();
    await page.goto(`${admin}/orders/${order.id}`);
    await page.getByRole('heading', { name: order.order_number, level: 1 }).waitFor();
    await page.getByText('No proofs yet.', { exact: false }).waitFor();

    await page.getByRole('button', { name: 'Create proof' }).click();
    const form = page.getByRole('form', { name: 'Create a proof' });
    await form.getByLabel('Proof document (file id)').fill(String(document.id));
    await form.getByLabel('Message to the customer').fill('Please check the bleed.');
    await form.getByRole('button', { name: 'Create proof' }).click();
    await page.getByText(/made — its link is shown only now/).waitFor();
    const proofs = (await api('GET', `/v1/orders/${order.id}/proofs`)).data;
    expect(proofs).toHaveLength(1);
    expect(proofs[0]).toMatchObject({ line_ids: [1], file_id: document.id, message: 'Please check the bleed.', state: 'pending' });
    const proof = page.locator(`[data-proof="${proofs[0]!.id}"]`);
    await proof.getByText('Awaiting decision').waitFor();
    await page.locator('[data-job]').getByText('Awaiting approval').waitFor();
    await screenshot(page, 'order-proofs');

    // The board: the waiting job carries the badge, and the filter shows only waiting jobs.
    const [job] = (await api('GET', `/v1/production/jobs?order_id=${order.id}`)).data;
    await page.goto(`${admin}/production?approval=awaiting`);
    await card(page, job!.id).getByText('Awaiting approval').waitFor();
    const shown = await page
      .locator('[data-job-card]')
      .evaluateAll((cards) => cards.map((node) => node.getAttribute('data-awaiting-approval')));
    expect(shown.every((value) => value === 'true')).toBe(true);

    // Approved on the customer's behalf: the decision record, with the approved hash shortened.
    await api('POST', `/v1/proofs/${proofs[0]!.id}/approve`, { comment: 'Looks good', name: 'Jonas Weber' });
    await page.goto(`${admin}/orders/${order.id}`);
    await proof.locator('[data-status="approved"]').waitFor();
    await proof.getByText('Looks good').waitFor();
    await proof.getByText(`${artwork.sha256.slice(0, 12)}…`).waitFor();
    await proof.getByRole('button', { name: `Revoke the link of proof ${proofs[0]!.id}` }).click();
    await page.getByText(`The link of proof ${proofs[0]!.id} is revoked`).waitFor();
    expect((await api('GET', `/v1/proofs/${proofs[0]!.id}`)).data.link_revoked_at).not.toBeNull();

    expect(errors).toEqual([]);
    await context.close();
  });
});
