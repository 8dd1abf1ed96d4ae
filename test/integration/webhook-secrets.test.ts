/**
 * Webhook signing secrets at rest (shared/webhooks/secrets.ts, shared/crypto/envelope.ts): the
 * stored registration never holds a secret in plaintext — neither the current one nor the previous
 * one during a rotation — and deliveries still verify with the secret the API showed. A
 * registration stored before secrets were sealed (plaintext, local data) still works, and the
 * operator's seal-secrets (shared/webhooks/seal-stored.ts) seals it in place without changing
 * the secret, never overwriting a rotation that ran meanwhile — as it seals again, under the kind's
 * own encryption context, a secret sealed before under the context all kinds shared.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '#docs/examples/verify-webhook';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { webhookKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { readWebhook } from '#shared/webhooks/repository';
import { sealRegistration, sealStoredSecrets } from '#shared/webhooks/seal-stored';
import { call } from '#test/support/http';
import { sealLegacy } from '#test/support/legacy-seal';
import { useReceiver } from '#test/support/receiver';
import { freshShop, registerForTest, type Shop } from '#test/support/webhooks';

let shop: Shop;
beforeAll(async () => {
  shop = await freshShop('Sealed Secrets Shop');
});

async function storedRegistration(id: number, tenant: Tenant = shop.tenant): Promise<Record<string, unknown>> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: webhookKeys.webhook(tenant, id), ConsistentRead: true }),
  );
  return result.Item!;
}

const legacySecret = (fill: number) => 'whsec_' + Buffer.alloc(36, fill).toString('base64');

/**
 * Stores a registration as code from before sealing did: the secret (and during a rotation the
 * previous one, with its expiry) in plaintext, no `secret_hint`.
 */
async function storeInPlaintext(tenant: Tenant, id: number, secret: string, previous?: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: webhookKeys.webhook(tenant, id),
      UpdateExpression: previous
        ? 'SET secret = :secret, previous_secret = :previous, previous_secret_expires_at = :until REMOVE secret_hint'
        : 'SET secret = :secret REMOVE secret_hint',
      ExpressionAttributeValues: {
        ':secret': secret,
        ...(previous ? { ':previous': previous, ':until': new Date(Date.now() + 3600_000).toISOString() } : {}),
      },
    }),
  );
}

/** Every secret the API showed must be absent from the stored item, whole or in part. */
function expectNoPlaintext(item: Record<string, unknown>, secrets: string[]) {
  const stored = JSON.stringify(item);
  for (const secret of secrets) {
    expect(stored).not.toContain(secret);
    expect(stored).not.toContain(secret.slice('whsec_'.length, 'whsec_'.length + 20));
  }
}

describe('webhook secrets at rest', () => {
  it('are stored sealed, with a hint, and deliveries verify with the secret shown at creation', async () => {
    const hook = await useReceiver();
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['*'] });
    const item = await storedRegistration(webhook.id);
    expect(String(item.secret)).toMatch(/^enc2\.webhook-signing-secret\.local\./);
    expect(item.secret_hint).toBe(`whsec_…${webhook.secret.slice(-4)}`);
    expect(item.previous_secret ?? null).toBeNull();
    expectNoPlaintext(item, [webhook.secret]);
    // Reads show the hint, never the stored form.
    expect((await call('GET', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest })).body.data.secret).toBe(item.secret_hint);
    expect((await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest })).status).toBe(200);
    const [request] = await hook.waitFor(1);
    expect(verifyWebhook(request!.rawBody, request!.headers, webhook.secret)).toEqual({ ok: true });
  });

  it('stay sealed through a rotation, the previous one too, and both shown secrets verify the deliveries', async () => {
    const hook = await useReceiver();
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['*'] });
    const rotated = (await call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { key: shop.secretTest })).body.data;
    const item = await storedRegistration(webhook.id);
    expect(String(item.secret)).toMatch(/^enc2\.webhook-signing-secret\./);
    expect(String(item.previous_secret)).toMatch(/^enc2\.webhook-signing-secret\./);
    expectNoPlaintext(item, [webhook.secret, rotated.secret]);
    // An update rewrites the registration: still sealed.
    expect((await call('PUT', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest, body: { description: 'renamed' } })).status).toBe(200);
    expectNoPlaintext(await storedRegistration(webhook.id), [webhook.secret, rotated.secret]);
    await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest });
    const [request] = await hook.waitFor(1);
    expect(verifyWebhook(request!.rawBody, request!.headers, rotated.secret)).toEqual({ ok: true });
    expect(verifyWebhook(request!.rawBody, request!.headers, webhook.secret)).toEqual({ ok: true });
  });

  it('stored in plaintext before sealing existed are still used, and sealed at the next rotation', async () => {
    const hook = await useReceiver();
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['*'] });
    const legacy = legacySecret(7);
    await storeInPlaintext(shop.tenant, webhook.id, legacy);
    expect((await call('GET', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest })).body.data.secret).toBe(`whsec_…${legacy.slice(-4)}`);
    await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest });
    const [request] = await hook.waitFor(1);
    expect(verifyWebhook(request!.rawBody, request!.headers, legacy)).toEqual({ ok: true });

    const rotated = (await call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { key: shop.secretTest })).body.data;
    const item = await storedRegistration(webhook.id);
    expect(String(item.previous_secret)).toMatch(/^enc2\.webhook-signing-secret\./);
    expectNoPlaintext(item, [legacy, rotated.secret]);
    await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest });
    const [, second] = await hook.waitFor(2);
    expect(verifyWebhook(second!.rawBody, second!.headers, legacy)).toEqual({ ok: true });
    expect(verifyWebhook(second!.rawBody, second!.headers, rotated.secret)).toEqual({ ok: true });
  });
});

describe('seal-secrets (npm run events -- seal-secrets)', () => {
  it('seals a secret sealed before under the shared context again as a webhook signing secret: the same secret signs', async () => {
    const own = await freshShop('Legacy Sealed Shop');
    const hook = await useReceiver();
    const webhook = await registerForTest(own.secretTest, { url: hook.url, events: ['*'] });
    const key = webhookKeys.webhook(own.tenant, webhook.id);
    const legacy = sealLegacy(webhook.secret, `${key.pk}|${key.sk}`);
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: key,
        UpdateExpression: 'SET secret = :legacy',
        ExpressionAttributeValues: { ':legacy': legacy },
      }),
    );
    // Still read (the delivery worker opens it under the shared context) until it is sealed again.
    await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: own.secretTest });
    const [first] = await hook.waitFor(1);
    expect(verifyWebhook(first!.rawBody, first!.headers, webhook.secret)).toEqual({ ok: true });

    expect(await sealStoredSecrets({ accountId: own.accountId })).toMatchObject({ registrations: 1, sealed: 1, secrets: 1, skipped: 0 });
    const item = await storedRegistration(webhook.id, own.tenant);
    expect(String(item.secret)).toMatch(/^enc2\.webhook-signing-secret\.local\./);
    expect(item.secret_hint).toBe(`whsec_…${webhook.secret.slice(-4)}`);
    await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: own.secretTest });
    const [, second] = await hook.waitFor(2);
    expect(verifyWebhook(second!.rawBody, second!.headers, webhook.secret)).toEqual({ ok: true });
    expect(await sealStoredSecrets({ accountId: own.accountId })).toMatchObject({ sealed: 0, secrets: 0 });
  });

  it('seals every plaintext secret of an account, test and live, current and previous, and a second run changes nothing', async () => {
    const own = await freshShop('Seal Secrets Shop');
    const live: Tenant = { accountId: own.accountId, mode: 'live' };
    const hook = await useReceiver();
    const plain = await registerForTest(own.secretTest, { url: hook.url, events: ['*'] });
    const rotating = await registerForTest(own.secretTest, { url: hook.url, events: ['*'] });
    const sealed = await registerForTest(own.secretTest, { url: hook.url, events: ['*'] });
    const liveHook = await registerForTest(own.secretLive, { url: hook.url, events: ['*'] });
    const [plainSecret, currentSecret, previousSecret, liveSecret] = [legacySecret(1), legacySecret(2), legacySecret(3), legacySecret(4)];
    await storeInPlaintext(own.tenant, plain.id, plainSecret);
    await storeInPlaintext(own.tenant, rotating.id, currentSecret, previousSecret);
    await storeInPlaintext(live, liveHook.id, liveSecret);
    const untouched = await storedRegistration(sealed.id, own.tenant);

    expect(await sealStoredSecrets({ accountId: own.accountId })).toEqual({
      accounts: 1,
      tenants: 2,
      registrations: 4,
      sealed: 3,
      secrets: 4,
      skipped: 0,
    });

    const plainItem = await storedRegistration(plain.id, own.tenant);
    expect(String(plainItem.secret)).toMatch(/^enc2\.webhook-signing-secret\.local\./);
    expect(plainItem.secret_hint).toBe(`whsec_…${plainSecret.slice(-4)}`);
    expect(plainItem.previous_secret ?? null).toBeNull();
    expectNoPlaintext(plainItem, [plainSecret]);
    const rotatingItem = await storedRegistration(rotating.id, own.tenant);
    expect(String(rotatingItem.secret)).toMatch(/^enc2\.webhook-signing-secret\./);
    expect(String(rotatingItem.previous_secret)).toMatch(/^enc2\.webhook-signing-secret\./);
    expectNoPlaintext(rotatingItem, [currentSecret, previousSecret]);
    const liveItem = await storedRegistration(liveHook.id, live);
    expect(String(liveItem.secret)).toMatch(/^enc2\.webhook-signing-secret\./);
    expectNoPlaintext(liveItem, [liveSecret]);
    // A registration sealed already is not written (not even its version).
    expect(await storedRegistration(sealed.id, own.tenant)).toEqual(untouched);
    // Reads show the hint of the same secret.
    expect((await call('GET', `/v1/webhooks/${plain.id}`, { key: own.secretTest })).body.data.secret).toBe(
      `whsec_…${plainSecret.slice(-4)}`,
    );

    // Deliveries are signed with the same secrets as before (the previous one too, while it overlaps).
    await call('POST', `/v1/webhooks/${plain.id}/test`, { key: own.secretTest });
    const [first] = await hook.waitFor(1);
    expect(verifyWebhook(first!.rawBody, first!.headers, plainSecret)).toEqual({ ok: true });
    await call('POST', `/v1/webhooks/${rotating.id}/test`, { key: own.secretTest });
    const [, second] = await hook.waitFor(2);
    expect(verifyWebhook(second!.rawBody, second!.headers, currentSecret)).toEqual({ ok: true });
    expect(verifyWebhook(second!.rawBody, second!.headers, previousSecret)).toEqual({ ok: true });
    await call('POST', `/v1/webhooks/${liveHook.id}/test`, { key: own.secretLive });
    const [, , third] = await hook.waitFor(3);
    expect(verifyWebhook(third!.rawBody, third!.headers, liveSecret)).toEqual({ ok: true });

    const again = await sealStoredSecrets({ accountId: own.accountId });
    expect(again).toMatchObject({ registrations: 4, sealed: 0, secrets: 0, skipped: 0 });
    expect(await storedRegistration(plain.id, own.tenant)).toEqual(plainItem);
  });

  it('never overwrites a rotation that ran after the registration was read', async () => {
    const hook = await useReceiver();
    const webhook = await registerForTest(shop.secretTest, { url: hook.url, events: ['*'] });
    const legacy = legacySecret(9);
    await storeInPlaintext(shop.tenant, webhook.id, legacy);
    const read = (await readWebhook(shop.tenant, webhook.id))!;
    expect(read.secret).toBe(legacy);
    // The receiver's owner rotates between the tool's read and its write.
    const rotated = (await call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { key: shop.secretTest })).body.data;
    const afterRotation = await storedRegistration(webhook.id);

    // The write's condition (the plaintext read) fails; read again, nothing is left to seal.
    expect(await sealRegistration(shop.tenant, read)).toEqual({ outcome: 'already-sealed', secrets: 0 });
    expect(await storedRegistration(webhook.id)).toEqual(afterRotation);
    await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest });
    const [request] = await hook.waitFor(1);
    expect(verifyWebhook(request!.rawBody, request!.headers, rotated.secret)).toEqual({ ok: true });
    expect(verifyWebhook(request!.rawBody, request!.headers, legacy)).toEqual({ ok: true });
  });

  it('refuses an account that does not exist', async () => {
    await expect(sealStoredSecrets({ accountId: 'acct_doesnotexist' })).rejects.toThrow('No account with id acct_doesnotexist');
  });
});
