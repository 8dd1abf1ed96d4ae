import { createHmac } from 'node:crypto';
import type { StoredEvent } from '#shared/events/stored-event';
import { describe, expect, it } from 'vitest';
import { buildPayload, deliveryHeaders } from '#shared/webhooks/payload';
import { activeSecrets, generateSecret, hexSignature, secretHint, standardKey, standardSignature } from '#shared/webhooks/signing';
import { verifyWebhook } from '#docs/examples/verify-webhook';

// The Standard Webhooks specification's published test vector.
const vector = {
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  id: 'msg_p5jXN8AQM9LWM0D4loKWxJek',
  timestamp: 1614265330,
  body: '{"test": 2432232314}',
  signature: 'v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=',
};

describe('secrets', () => {
  it('are whsec_ + base64 of 36 random bytes, never repeated', () => {
    const secrets = new Set(Array.from({ length: 200 }, generateSecret));
    expect(secrets.size).toBe(200);
    for (const secret of secrets) {
      expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{48}$/);
      expect(standardKey(secret)).toHaveLength(36);
    }
  });

  it('show only a hint after creation', () => {
    expect(secretHint('whsec_abcdefghijklmnopWXYZ')).toBe('whsec_…WXYZ');
  });
});

describe('signatures', () => {
  it('reproduce the Standard Webhooks test vector', () => {
    expect(standardSignature(vector.secret, vector.id, vector.timestamp, vector.body)).toBe(vector.signature);
  });

  it('X-Webhook-Signature is the lowercase hex HMAC-SHA256 of the raw body keyed with the whole secret', () => {
    const body = '{"id":"wh_1","event":"order.created"}';
    const expected = createHmac('sha256', vector.secret).update(body).digest('hex');
    expect(hexSignature(vector.secret, body)).toBe(expected);
    expect(expected).toMatch(/^[0-9a-f]{64}$/);
  });

  it('sign with both secrets during the rotation overlap, and only the new one after it', () => {
    const now = new Date('2026-01-01T12:00:00Z');
    const secrets = { secret: 'whsec_bmV3', previous_secret: 'whsec_b2xk', previous_secret_expires_at: '2026-01-02T12:00:00.000Z' };
    expect(activeSecrets(secrets, now)).toEqual(['whsec_bmV3', 'whsec_b2xk']);
    expect(activeSecrets(secrets, new Date('2026-01-02T12:00:01Z'))).toEqual(['whsec_bmV3']);
    expect(activeSecrets({ secret: 'whsec_bmV3', previous_secret: null, previous_secret_expires_at: null }, now)).toEqual(['whsec_bmV3']);

    const body = '{}';
    const headers = deliveryHeaders({
      deliveryId: 'wh_x',
      kind: 'order.created',
      attempt: 2,
      timestamp: 1700000000,
      body,
      secrets: activeSecrets(secrets, now),
    });
    expect(headers['X-Webhook-Signature']).toBe(`${hexSignature('whsec_bmV3', body)},${hexSignature('whsec_b2xk', body)}`);
    expect(headers['webhook-signature']).toBe(
      `${standardSignature('whsec_bmV3', 'wh_x', 1700000000, body)} ${standardSignature('whsec_b2xk', 'wh_x', 1700000000, body)}`,
    );
  });
});

describe('delivery body and headers', () => {
  const deliveryId = 'wh_0000000000000000000000AA';
  const event: StoredEvent = {
    event_id: 'evt_1',
    kind: 'customer.created',
    tenant: { accountId: 'acct_1', mode: 'test' },
    created_at: '2026-01-01T00:00:00.000Z',
    data: { customer: { id: 1 } },
    test: false,
    target_webhook_id: null,
    expires_at: 0,
  };

  it('is the documented envelope in documented key order, with "test" only on test deliveries', () => {
    expect(buildPayload(deliveryId, event)).toBe(
      '{"id":"wh_0000000000000000000000AA","event_id":"evt_1","event":"customer.created","timestamp":"2026-01-01T00:00:00.000Z","mode":"test","data":{"customer":{"id":1}}}',
    );
    expect(JSON.parse(buildPayload(deliveryId, { ...event, test: true }))).toMatchObject({ test: true });
  });

  it('carries every documented header', () => {
    const body = buildPayload(deliveryId, event);
    const headers = deliveryHeaders({ deliveryId, kind: event.kind, attempt: 3, timestamp: 1767225600, body, secrets: [vector.secret] });
    expect(headers).toEqual({
      'Content-Type': 'application/json',
      'User-Agent': 'PrintShopAPI-Webhooks/1.0',
      'X-Webhook-Id': deliveryId,
      'X-Webhook-Event': 'customer.created',
      'X-Webhook-Timestamp': '1767225600',
      'X-Webhook-Attempt': '3',
      'X-Webhook-Signature': hexSignature(vector.secret, body),
      'webhook-id': deliveryId,
      'webhook-timestamp': '1767225600',
      'webhook-signature': standardSignature(vector.secret, deliveryId, 1767225600, body),
    });
  });
});

describe('the documented verification helper (docs/examples)', () => {
  const body = '{"id":"wh_1","event":"order.created"}';
  const now = 1767225600;
  const headers = (secrets: string[], timestamp = now) =>
    Object.fromEntries(
      Object.entries(deliveryHeaders({ deliveryId: 'wh_1', kind: 'order.created', attempt: 1, timestamp, body, secrets })).map(
        ([name, value]) => [name.toLowerCase(), value],
      ),
    );

  it('accepts a genuine delivery and refuses a tampered body or another secret', () => {
    expect(verifyWebhook(body, headers([vector.secret]), vector.secret, { now })).toEqual({ ok: true });
    expect(verifyWebhook(body.replace('order', 'other'), headers([vector.secret]), vector.secret, { now }).ok).toBe(false);
    expect(verifyWebhook(body, headers(['whsec_b3RoZXI=']), vector.secret, { now }).ok).toBe(false);
  });

  it('accepts either signature during a rotation', () => {
    const both = headers(['whsec_bmV3c2VjcmV0', vector.secret]);
    expect(verifyWebhook(body, both, vector.secret, { now }).ok).toBe(true);
    expect(verifyWebhook(body, both, 'whsec_bmV3c2VjcmV0', { now }).ok).toBe(true);
  });

  it('refuses a stale or future timestamp (replays)', () => {
    expect(verifyWebhook(body, headers([vector.secret], now - 600), vector.secret, { now })).toEqual({
      ok: false,
      reason: 'stale timestamp',
    });
    expect(verifyWebhook(body, headers([vector.secret], now + 600), vector.secret, { now }).ok).toBe(false);
  });

  it('refuses missing headers', () => {
    expect(verifyWebhook(body, {}, vector.secret, { now }).ok).toBe(false);
  });
});
