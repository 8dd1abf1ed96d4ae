/**
 * The admin panel end to end, in headless Chromium against the local stack: sign in with a test
 * key, register a loopback receiver, copy the secret, send test events, watch deliveries succeed,
 * fail and retry, resend, change and delete the registration — by clicking, as a person would.
 * Screenshots of the main screens at 1280 and 390 px go to docs/screenshots/.
 */
import { createHmac } from 'node:crypto';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { resetConfig } from '#shared/config';
import { eventKinds } from '#shared/events/catalogue';
import { chromiumAvailable, CHROMIUM, DESKTOP, fitsWidth, launch, newContext, PHONE, screenshot, watchErrors } from './browser';
import type { BodyOf } from '#test/support/api-types';
import { useReceiver } from '#test/support/receiver';
import './fixtures';

const { origin, env, shop } = inject('e2e');
const admin = `${origin}/admin`;

if (!chromiumAvailable) {
  const message = `Chromium not found at ${CHROMIUM}: install Debian's chromium package (\`.ci/run\` does) or set CHROMIUM_PATH.`;
  if (process.env.CI) throw new Error(message);
  console.warn(`Skipping the admin end-to-end tests. ${message}`);
}

let browser: Browser;

beforeAll(async () => {
  if (!chromiumAvailable) return;
  browser = await launch();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * The test's webhook receiver (test/support/receiver.ts, closed when the test ends), answering
 * like a small JSON service: `{"received":true}`, or an error body while it is told to fail.
 */
const jsonService = (status: number) => (status < 300 ? '{"received":true}' : '{"error":"receiver is down for maintenance"}');
const startTestReceiver = () => useReceiver({ path: '/hooks/print-shop', body: jsonService });

/** The API as an integrator calls it, for setting up state that a test does not click through. */
async function api<const Method extends string, const Path extends string>(
  method: Method,
  path: Path,
  body?: unknown,
  key = shop.secretTest,
): Promise<BodyOf<Method, Path>> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { Authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return (await response.json()) as BodyOf<Method, Path>;
}

/** Signs in on the webhook settings (the panel itself opens on Orders). */
async function signIn(page: Page, key: string) {
  await page.goto(`${admin}/settings/webhooks`);
  const field = page.getByLabel('Secret API key');
  await expect.poll(() => page.evaluate('document.activeElement?.id')).toBe('api-key'); // autofocus
  await field.fill(key);
  await field.press('Enter');
}

const deliveryRow = (page: Page, id: string) => page.locator(`tr[data-delivery="${id}"]`);

/** Waits until the newest delivery in the panel's table is the one after `known` and answers its id. */
async function newDeliveryId(page: Page, known: Set<string>): Promise<string> {
  let id = '';
  await expect
    .poll(
      async () => {
        const ids = await page.locator('tr[data-delivery]').evaluateAll((rows) => rows.map((row) => row.getAttribute('data-delivery')!));
        id = ids.find((candidate) => !known.has(candidate)) ?? '';
        return id;
      },
      { timeout: 20_000 },
    )
    .not.toBe('');
  known.add(id);
  return id;
}

describe.skipIf(!chromiumAvailable)('admin panel', () => {
  it('does the whole webhook flow by clicking, at 1280 px', async () => {
    const receiver = await startTestReceiver();
    const context = await newContext(browser, origin, DESKTOP);
    const page = await context.newPage();
    const errors = watchErrors(page);

    // Sign in: a wrong key is refused in place, the right one opens the panel.
    await page.goto(admin);
    await expect.poll(() => page.getByRole('heading', { name: 'Sign in with an API key' }).isVisible()).toBe(true);
    await screenshot(page, 'sign-in');
    await page.getByLabel('Secret API key').fill('pk_test_abcdefghijklmnop');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('This is a publishable key').isVisible()).toBe(true);
    await page.getByLabel('Secret API key').fill('sk_test_NotARealKeyNotARealKey0000');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.getByText('The API did not accept this key').isVisible()).toBe(true);

    await signIn(page, shop.secretTest);
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor();
    expect(page.url()).toBe(`${admin}/settings/webhooks`);
    await expect.poll(() => page.locator('.mode-badge').textContent()).toBe('TEST');
    expect(await page.locator('.account-name').textContent()).toBe(shop.name);
    // The key lives in sessionStorage only: not in localStorage, cookies or the address.
    const storage = await page.evaluate(
      '({ session: Object.values(sessionStorage), local: localStorage.length, cookie: document.cookie })',
    );
    expect(storage).toEqual({ session: [shop.secretTest], local: 0, cookie: '' });
    expect(page.url()).not.toContain(shop.secretTest);
    await page.getByText('No webhooks yet').waitFor();
    await screenshot(page, 'webhooks-empty');

    // Create: inline validation, then the server's own 422 next to the field.
    await page.getByRole('link', { name: '+ Add your first webhook' }).click();
    await page.getByRole('heading', { name: 'Add webhook' }).waitFor();
    const url = page.getByLabel('Endpoint URL');
    await url.fill('example.com/hooks');
    await url.blur();
    await page.getByText('Enter a complete URL').waitFor();
    await page.getByLabel('Selected events').check();
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('Choose at least one event').waitFor();
    await screenshot(page, 'webhook-form-errors');
    await url.fill('https://10.0.0.7/hooks');
    await page.getByLabel(`Select all (${eventKinds.length})`).check();
    expect(await page.getByText(`${eventKinds.length} selected`).isVisible()).toBe(true);
    await page.getByRole('button', { name: 'Create webhook' }).click();
    const urlError = page.locator('#webhook-url-error');
    await expect.poll(() => urlError.textContent()).toMatch(/private/);
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    await screenshot(page, 'webhook-form-server-error');

    await url.fill(receiver.url);
    await page.getByLabel(`Select all (${eventKinds.length})`).uncheck();
    await page.getByLabel('Orders', { exact: true }).check();
    await page.getByLabel('customer.created').check();
    await page.getByLabel('invoice.paid').check();
    expect(await page.getByText('7 selected').isVisible()).toBe(true);
    await page.getByLabel('Description').fill('ERP sync (production planning)');
    expect(await page.getByRole('switch', { name: 'Active' }).isChecked()).toBe(true);
    await screenshot(page, 'webhook-form');
    await page.getByRole('button', { name: 'Create webhook' }).click();

    // The secret, once, with a copy button.
    await page.getByText('This secret will not be shown again.').waitFor();
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByRole('button', { name: '✓ Copied' }).waitFor();
    const secret = (await page.evaluate('navigator.clipboard.readText()')) as string;
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{40,}$/);
    expect(await page.getByRole('textbox', { name: 'Signing secret' }).inputValue()).toBe(secret);
    await screenshot(page, 'secret-reveal');
    await page.getByRole('button', { name: 'I have saved the secret' }).click();
    expect(await page.getByText('This secret will not be shown again.').count()).toBe(0);
    expect(await page.locator('.facts').textContent()).toContain(`whsec_…${secret.slice(-4)}`);
    await page.getByText('No deliveries yet').waitFor();
    const webhookPath = new URL(page.url()).pathname;

    // A test event: delivered, signed with the copied secret, listed as succeeded.
    const known = new Set<string>();
    await page.locator('#test-event').selectOption('order.created');
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByText('Test webhook sent').waitFor();
    const first = await newDeliveryId(page, known);
    await expect.poll(() => deliveryRow(page, first).locator('[data-status]').textContent(), { timeout: 20_000 }).toContain('Succeeded');
    const delivered = receiver.requests.find((request) => request.headers['x-webhook-id'] === first)!;
    expect(delivered).toBeDefined();
    expect(delivered.headers['x-webhook-signature']).toBe(createHmac('sha256', secret).update(delivered.rawBody).digest('hex'));
    expect(JSON.parse(delivered.rawBody)).toMatchObject({ id: first, event: 'order.created', mode: 'test', test: true });
    expect(await deliveryRow(page, first).textContent()).toContain('200');

    // The receiver fails: retries with their status codes, a next retry time, then a resend.
    receiver.respondWith(500);
    await page.locator('#test-event').selectOption('invoice.paid');
    await page.getByRole('button', { name: 'Send test event' }).click();
    const second = await newDeliveryId(page, known);
    const row = deliveryRow(page, second);
    await expect.poll(() => row.locator('td[data-label="Attempts"]').textContent(), { timeout: 30_000 }).toBe('3');
    expect(await row.locator('[data-status]').textContent()).toContain('Retrying');
    expect(await row.locator('td[data-label="Last response"]').textContent()).toBe('500');
    expect(await row.locator('td[data-label="Next retry"]').textContent()).toMatch(/^in \d+ min$/);
    expect(await page.getByText('Refreshing automatically while deliveries are pending').isVisible()).toBe(true);
    await screenshot(page, 'webhook-detail');

    await row.getByRole('link', { name: `Details of delivery ${second}` }).click();
    await page.getByRole('heading', { name: 'Attempts (newest first)' }).waitFor();
    const attempts = page.locator('tr[data-attempt]');
    expect(await attempts.count()).toBe(3);
    for (const attempt of await attempts.all()) {
      expect(await attempt.locator('td[data-label="Status code"]').textContent()).toBe('500');
      expect(await attempt.locator('td[data-label="Response"]').textContent()).toContain('receiver is down');
    }
    await screenshot(page, 'delivery-retrying');

    receiver.respondWith(200);
    await page.getByRole('button', { name: 'Resend' }).click();
    await page.getByText('Resent: a new attempt is on its way').waitFor();
    await expect.poll(() => page.locator('.overview [data-status]').textContent(), { timeout: 20_000 }).toContain('Succeeded');
    await expect.poll(() => attempts.count()).toBe(4);
    expect(await attempts.first().locator('td[data-label="Status code"]').textContent()).toBe('200');
    await page.locator('details.payload summary').click();
    expect(await page.locator('.code-block').textContent()).toContain('"event": "invoice.paid"');
    await screenshot(page, 'delivery-detail');

    // Filters: by status and by event.
    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: /^Webhook \d+$/ })
      .click();
    await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
    await page.getByLabel('Status').selectOption('failed');
    await page.getByText('No deliveries match these filters').waitFor();
    expect(page.url()).toContain('status=failed');
    await page.getByLabel('Status').selectOption('succeeded');
    await expect.poll(() => page.locator('tr[data-delivery]').count()).toBe(2);
    await page.locator('#filter-event').selectOption('invoice.paid');
    await expect.poll(() => page.locator('tr[data-delivery]').count()).toBe(1);
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => page.locator('tr[data-delivery]').count()).toBe(2);

    // The list: URL, events, state, last delivery.
    await page.getByRole('navigation', { name: 'Administration' }).getByRole('link', { name: 'Webhooks' }).click();
    const listRow = page.locator('tbody tr').first();
    await expect.poll(() => listRow.locator('td[data-label="Last delivery"]').textContent()).toContain('Succeeded');
    expect(await listRow.textContent()).toContain(receiver.url);
    expect(await listRow.locator('td[data-label="Events"]').textContent()).toBe('order.created +6 more');
    expect(await listRow.locator('td[data-label="State"]').textContent()).toContain('Active');
    await screenshot(page, 'webhooks-list');

    // Disable and enable; edit; rotate the secret.
    await listRow.getByRole('link', { name: `Manage ${receiver.url}` }).click();
    await page.getByRole('button', { name: 'Disable' }).click();
    await page.getByText('Webhook disabled').waitFor();
    expect(await page.getByRole('button', { name: 'Send test event' }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.getByText('Webhook enabled').waitFor();

    await page.getByRole('link', { name: 'Edit', exact: true }).click();
    await page.getByRole('heading', { name: 'Edit webhook' }).waitFor();
    expect(await page.getByLabel('Endpoint URL').inputValue()).toBe(receiver.url);
    expect(await page.getByLabel('invoice.paid').isChecked()).toBe(true);
    await page.getByLabel('Description').fill('ERP sync');
    await page.getByLabel('All events').check();
    await page.getByRole('button', { name: 'Save changes' }).click();
    await page.getByText('Webhook saved.').waitFor();
    expect(new URL(page.url()).pathname).toBe(webhookPath);
    expect(await page.locator('.facts').textContent()).toContain('All events, including kinds added later');

    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const rotate = page.getByRole('dialog', { name: 'Rotate the signing secret?' });
    await rotate.waitFor();
    await rotate.getByRole('button', { name: 'Rotate secret' }).click();
    await page.getByRole('heading', { name: 'New signing secret' }).waitFor();
    const rotated = await page.getByRole('textbox', { name: 'Signing secret' }).inputValue();
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByRole('button', { name: 'I have saved the secret' }).click();

    // Delete, with a confirmation that Escape cancels.
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete this webhook?' });
    await dialog.waitFor();
    await screenshot(page, 'delete-dialog', { fullPage: false });
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible()).toBe(false);
    expect(await page.evaluate('document.activeElement?.textContent')).toBe('Delete');
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await dialog.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText(`Webhook ${receiver.url} deleted.`).waitFor();
    await page.getByText('No webhooks yet').waitFor();
    expect((await api('GET', '/v1/webhooks')).data).toEqual([]);

    // Sign out forgets the key.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByText('You signed out').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows a key without webhooks:read a clear message, and signs out on 401', async () => {
    const context = await newContext(browser, origin, DESKTOP);
    const page = await context.newPage();
    const errors = watchErrors(page);

    await signIn(page, shop.withoutWebhooks);
    await page.getByText('This key cannot see webhooks.').waitFor();
    expect(await page.locator('.notice').textContent()).toContain('customers:read, orders:read');
    await screenshot(page, 'missing-scope');

    // A key revoked while signed in: the next call answers 401 and the panel signs out.
    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, shop.revocable.key);
    await page.locator('.empty, table').first().waitFor();
    expect(await page.getByRole('link', { name: /Add/ }).count()).toBe(0); // a read-only key cannot add webhooks
    Object.assign(process.env, env);
    resetConfig();
    const { revokeApiKey } = await import('#shared/accounts/service');
    await revokeApiKey(shop.accountId, shop.revocable.id);
    // The next call (a client-side navigation, no reload) is refused.
    await page.evaluate(`history.pushState(null, '', '/admin/settings/webhooks/1'); dispatchEvent(new PopStateEvent('popstate'))`);
    await page.getByText('You were signed out').waitFor();
    expect(await page.evaluate('sessionStorage.length')).toBe(0);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('pages through a long delivery history, 20 at a time', async () => {
    const receiver = await startTestReceiver();
    const created = await api('POST', '/v1/webhooks', { url: receiver.url, events: ['*'], description: 'Busy endpoint' });
    const id = created.data.id as number;
    for (let i = 0; i < 22; i++) await api('POST', `/v1/webhooks/${id}/test`, { event: i % 2 ? 'order.created' : 'quote.accepted' });
    await expect
      .poll(async () => (await api('GET', `/v1/webhooks/${id}/deliveries?status=succeeded`)).pagination.total, { timeout: 30_000 })
      .toBe(22);

    const context = await newContext(browser, origin, DESKTOP);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await signIn(page, shop.secretTest);
    await page.getByRole('link', { name: `Manage ${receiver.url}` }).click();
    const pager = page.getByRole('navigation', { name: 'Pages' });
    await expect.poll(() => pager.textContent()).toContain('22 deliveries · page 1 of 2');
    expect(await page.locator('tr[data-delivery]').count()).toBe(20);
    expect(await pager.locator('[aria-disabled="true"]').textContent()).toBe('← Previous');
    await pager.getByRole('link', { name: 'Next →' }).click();
    await expect.poll(() => pager.textContent()).toContain('page 2 of 2');
    expect(await page.locator('tr[data-delivery]').count()).toBe(2);
    expect(new URL(page.url()).search).toBe('?page=2');
    await page.goBack();
    await expect.poll(() => pager.textContent()).toContain('page 1 of 2');
    // A filter starts again at page 1.
    await page.locator('#filter-event').selectOption('quote.accepted');
    await expect.poll(() => pager.textContent()).toBe('11 deliveries');

    await api('DELETE', `/v1/webhooks/${id}`);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('works at 390 px: every main screen fits the width', async () => {
    const receiver = await startTestReceiver();
    const context = await newContext(browser, origin, PHONE);
    const page = await context.newPage();
    const errors = watchErrors(page);
    await page.goto(admin);
    await page.getByLabel('Secret API key').waitFor();
    await screenshot(page, 'sign-in');
    expect(await fitsWidth(page)).toBe(true);
    await signIn(page, shop.secretTest);
    await page.getByText('No webhooks yet').waitFor();
    await screenshot(page, 'webhooks-empty');
    expect(await fitsWidth(page)).toBe(true);

    // State through the API, as an integrator would have it: one delivery succeeded, one retrying.
    const created = await api('POST', '/v1/webhooks', {
      url: receiver.url,
      events: ['order.created', 'order.shipped', 'invoice.paid'],
      description: 'Shop floor display',
    });
    const id = created.data.id as number;
    receiver.respondWith(200);
    await api('POST', `/v1/webhooks/${id}/test`, { event: 'order.shipped' });
    await expect
      .poll(async () => (await api('GET', `/v1/webhooks/${id}/deliveries?status=succeeded`)).data.length, { timeout: 20_000 })
      .toBe(1);
    receiver.respondWith(500);
    await api('POST', `/v1/webhooks/${id}/test`, { event: 'invoice.paid' });
    await expect
      .poll(async () => (await api('GET', `/v1/webhooks/${id}/deliveries?event=invoice.paid`)).data[0]?.attempt_count, { timeout: 30_000 })
      .toBe(3);
    receiver.respondWith(200);

    await page.reload(); // the tab's session survives a reload
    const row = page.locator('tbody tr').first();
    await expect.poll(() => row.locator('td[data-label="Last delivery"]').textContent(), { timeout: 20_000 }).toContain('Retrying');
    await screenshot(page, 'webhooks-list');
    expect(await fitsWidth(page)).toBe(true);

    await row.getByRole('link', { name: `Manage ${receiver.url}` }).click();
    await expect.poll(() => page.locator('tr[data-delivery]').count()).toBe(2);
    await screenshot(page, 'webhook-detail');
    expect(await fitsWidth(page)).toBe(true);

    await page
      .locator('tr[data-delivery]')
      .first()
      .getByRole('link', { name: /^Details of delivery/ })
      .click();
    await page.getByRole('heading', { name: 'Attempts (newest first)' }).waitFor();
    await expect.poll(() => page.locator('tr[data-attempt]').count()).toBe(3);
    await screenshot(page, 'delivery-detail');
    expect(await fitsWidth(page)).toBe(true);

    await page.goto(`${admin}/settings/webhooks/new`);
    await page.getByLabel('Selected events').check();
    await page.getByLabel('Endpoint URL').fill('http://example.com/hooks');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('Use https://').waitFor();
    await screenshot(page, 'webhook-form-errors');
    expect(await fitsWidth(page)).toBe(true);
    await page.getByLabel('Endpoint URL').fill('https://hooks.example.com/print-shop');
    await page.getByLabel('Orders', { exact: true }).check();
    await screenshot(page, 'webhook-form');
    await page.getByRole('button', { name: 'Create webhook' }).click();
    await page.getByText('This secret will not be shown again.').waitFor();
    await screenshot(page, 'secret-reveal');
    expect(await fitsWidth(page)).toBe(true);

    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await page.getByRole('dialog', { name: 'Delete this webhook?' }).waitFor();
    await screenshot(page, 'delete-dialog', { fullPage: false });
    await page.getByRole('button', { name: 'Delete webhook' }).click();
    await page.getByText('deleted.').waitFor();

    await page.getByRole('button', { name: 'Sign out' }).click();
    await signIn(page, shop.withoutWebhooks);
    await page.getByText('This key cannot see webhooks.').waitFor();
    await screenshot(page, 'missing-scope');
    expect(await fitsWidth(page)).toBe(true);

    await api('DELETE', `/v1/webhooks/${id}`);
    expect(errors).toEqual([]);
    await context.close();
  });
});
