/**
 * The SDK's `verifyWebhook` against deliveries signed by the service's own code
 * (shared/webhooks/payload.ts and signing.ts: the body and headers the delivery worker sends).
 */
import { describe, expect, it } from 'vitest';
import type { StoredEvent } from '#shared/events/stored-event';
import { buildPayload, deliveryHeaders } from '#shared/webhooks/payload';
import { generateSecret } from '#shared/webhooks/signing';
import { verifyWebhook, WebhookVerificationError, type WebhookRefusal } from '../src/webhooks';

const now = Date.parse('2026-11-28T10:00:00Z');
const seconds = now / 1000;

const event = {
  event_id: 'evt_0VcElsuTczY6KNjt1HUOeu',
  kind: 'customer.created',
  created_at: '2026-11-28T09:59:58.000Z',
  tenant: { accountId: 'acct_1', mode: 'test' },
  data: { customer: { id: 7, name: 'Anna Schmidt', email: 'anna@example.com' } },
} as unknown as StoredEvent;

/** A delivery as the service sends it: the body and headers of attempt 1, signed with `secrets`. */
function delivery(secrets: string[], timestamp = seconds) {
  const deliveryId = 'wh_0dYc3K2a8Xw1kZp4Qr7Tn2Lm';
  const body = buildPayload(deliveryId, event);
  return { body, headers: deliveryHeaders({ deliveryId, kind: event.kind, attempt: 1, timestamp, body, secrets }) };
}

function refusal(work: () => unknown): WebhookRefusal | undefined {
  try {
    work();
  } catch (error) {
    if (error instanceof WebhookVerificationError) return error.reason;
    throw error;
  }
  return undefined;
}

describe('verifyWebhook', () => {
  const secret = generateSecret();

  it('returns the typed event of a delivery the service signed', () => {
    const { body, headers } = delivery([secret]);
    const verified = verifyWebhook(body, headers, secret, 300, now);
    expect(verified).toEqual(JSON.parse(body));
    expect(verified.event).toBe('customer.created');
    if (verified.event === 'customer.created') expect(verified.data.customer.id).toBe(7);
  });

  it('reads the headers as Node gives them (lower case) and as a fetch Headers', () => {
    const { body, headers } = delivery([secret]);
    const lower = Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
    expect(verifyWebhook(Buffer.from(body), lower, secret, 300, now).id).toBe('wh_0dYc3K2a8Xw1kZp4Qr7Tn2Lm');
    expect(verifyWebhook(body, new Headers(headers), secret, 300, now).id).toBe('wh_0dYc3K2a8Xw1kZp4Qr7Tn2Lm');
  });

  it('accepts either secret while a rotation overlaps', () => {
    const previous = generateSecret();
    const { body, headers } = delivery([secret, previous]);
    expect(verifyWebhook(body, headers, previous, 300, now).event).toBe('customer.created');
    expect(verifyWebhook(body, headers, secret, 300, now).event).toBe('customer.created');
  });

  it('refuses a tampered body', () => {
    const { body, headers } = delivery([secret]);
    expect(refusal(() => verifyWebhook(body.replace('"id":7', '"id":8'), headers, secret, 300, now))).toBe('signature_mismatch');
  });

  it('refuses a delivery signed with another secret', () => {
    const { body, headers } = delivery([generateSecret()]);
    expect(refusal(() => verifyWebhook(body, headers, secret, 300, now))).toBe('signature_mismatch');
  });

  it('refuses a delivery whose body signature is right but whose Standard Webhooks signature is not (another id)', () => {
    const { body, headers } = delivery([secret]);
    expect(refusal(() => verifyWebhook(body, { ...headers, 'webhook-id': 'wh_other' }, secret, 300, now))).toBe('signature_mismatch');
  });

  it('refuses a stale or future timestamp, outside the tolerance', () => {
    const stale = delivery([secret], seconds - 301);
    expect(refusal(() => verifyWebhook(stale.body, stale.headers, secret, 300, now))).toBe('stale_timestamp');
    const future = delivery([secret], seconds + 301);
    expect(refusal(() => verifyWebhook(future.body, future.headers, secret, 300, now))).toBe('stale_timestamp');
    expect(verifyWebhook(stale.body, stale.headers, secret, 600, now).event).toBe('customer.created');
  });

  it('refuses a delivery without its signature headers', () => {
    const { body, headers } = delivery([secret]);
    const { 'X-Webhook-Signature': _dropped, ...withoutHex } = headers;
    expect(refusal(() => verifyWebhook(body, withoutHex, secret, 300, now))).toBe('missing_headers');
    expect(refusal(() => verifyWebhook(body, {}, secret, 300, now))).toBe('missing_headers');
  });
});
