/**
 * Each kind of secret under its own encryption context (shared/crypto/kinds.ts), on the local
 * stack, whose key file enforces the contexts as KMS does: carrier settings keep the credentials
 * and the callback secret apart, and the callback opens only the callback secret — not a copy of
 * the credentials put in its place, not a plaintext one. Secrets sealed before, under the one
 * shared context, keep working where their kind had them (the credentials, the customer-token
 * signing keys) and never as the callback secret; the operator's seal-secrets seals them again
 * under their own contexts, and a second run finds nothing to do.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { CreateTableCommand, DeleteTableCommand } from '@aws-sdk/client-dynamodb';
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { env, resetConfig } from '#shared/config';
import { ensureSigningKeys, resealSigningKeys, resetKeyCache, signingKeys } from '#shared/customer-auth/key-store';
import { platformKeys, shipmentKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { sealStoredCarrierSecrets } from '#shared/shipments/seal-stored';
import { call } from '#test/support/http';
import { sealLegacy } from '#test/support/legacy-seal';
import { newCustomer, newProduct } from '#test/support/orders';
import { expectNoContractViolations, startFakeSendcloud, type FakeSendcloud } from '#test/support/sendcloud-fake';
import { freshShop, readyOrder, type Shop } from '#test/support/shop';

let fake: FakeSendcloud;
beforeAll(async () => {
  fake = await startFakeSendcloud();
});
afterAll(() => fake?.close());
// Every request the fake received must be one Sendcloud's v3 contract accepts.
afterEach(() => expectNoContractViolations(fake));

const live = (shop: Shop): Tenant => ({ accountId: shop.accountId, mode: 'live' });
const settingsKey = (shop: Shop) => shipmentKeys.carrierSettings(live(shop), 'sendcloud');
const ownerOf = (shop: Shop) => `${settingsKey(shop).pk}|${settingsKey(shop).sk}`;

async function storedSettings(shop: Shop): Promise<Record<string, unknown>> {
  return (await dynamo().send(new GetCommand({ TableName: tableName(), Key: settingsKey(shop), ConsistentRead: true }))).Item!;
}

async function setStored(shop: Shop, values: Record<string, unknown>, remove: string[] = []): Promise<void> {
  const names = Object.keys(values);
  await dynamo().send(
    new UpdateCommand({
      TableName: tableName(),
      Key: settingsKey(shop),
      UpdateExpression: [
        names.length ? `SET ${names.map((name) => `${name} = :${name}`).join(', ')}` : '',
        remove.length ? `REMOVE ${remove.join(', ')}` : '',
      ].join(' '),
      ...(names.length ? { ExpressionAttributeValues: Object.fromEntries(names.map((name) => [`:${name}`, values[name]])) } : {}),
    }),
  );
}

async function configure(shop: Shop, extra: Record<string, unknown> = {}): Promise<string> {
  const configured = await call('PUT', '/v1/carriers/sendcloud', {
    key: shop.secretLive,
    body: {
      public_key: fake.publicKey,
      secret_key: fake.secretKey,
      base_url: fake.url,
      // Sendcloud's v3 announce needs a sender (the fake holds requests to its contract).
      sender_address: { name: 'Druckerei Muster GmbH', line1: 'Druckweg 2', postal_code: '20457', city: 'Hamburg', country: 'DE' },
      ...extra,
    },
  });
  expect(configured.status, JSON.stringify(configured.body)).toBe(200);
  return configured.body.data.webhook_url;
}

/** A call Sendcloud makes that changes nothing (acknowledged with 200 once its signature is verified). */
const harmless = () => ({ action: 'integration_updated', timestamp: Date.now() });

describe('carrier settings', () => {
  it('seal the credentials and the callback secret as two kinds; the callback opens only its own', async () => {
    const shop = await freshShop('Secret Kinds Shop');
    const signatureKey = 'whsig_0123456789abcdef';
    const webhookUrl = await configure(shop, { webhook_signature_key: signatureKey });
    const stored = await storedSettings(shop);
    expect(stored.secret_key).toMatch(/^enc2\.carrier-credentials\.local\./);
    expect(stored.callback_secret).toMatch(/^enc2\.carrier-callback-secret\.local\./);
    expect(JSON.stringify(stored)).not.toContain(fake.secretKey);
    expect(JSON.stringify(stored)).not.toContain(signatureKey);

    // Signed with the webhook signature key: verified. With the secret key: not (the integration signs with the other).
    expect((await fake.sendCallback(webhookUrl, harmless(), signatureKey)).status).toBe(200);
    expect((await fake.sendCallback(webhookUrl, harmless(), fake.secretKey)).status).toBe(401);

    // The credentials' sealed value put in the callback secret's place does not open there.
    await setStored(shop, { callback_secret: stored.secret_key });
    const swapped = await fake.sendCallback(webhookUrl, harmless(), fake.secretKey);
    expect(swapped.status).toBe(500);
    expect(swapped.body.error.code).toBe('internal_error');
    // Nor does a plaintext secret written in its place (a forged callback signed with it).
    await setStored(shop, { callback_secret: 'forged-callback-secret' });
    expect((await fake.sendCallback(webhookUrl, harmless(), 'forged-callback-secret')).status).toBe(500);

    // Without a webhook signature key, callbacks are checked with (a sealed copy of) the secret key.
    await configure(shop);
    const again = await storedSettings(shop);
    expect(again.callback_secret).toMatch(/^enc2\.carrier-callback-secret\./);
    expect(again.callback_secret).not.toBe(again.secret_key);
    expect((await fake.sendCallback(webhookUrl, harmless(), fake.secretKey)).status).toBe(200);
  });

  it('sealed before under the shared context still call Sendcloud, wait with callbacks (503) until seal-secrets seals them apart', async () => {
    const shop = await freshShop('Legacy Carrier Shop');
    const webhookUrl = await configure(shop);
    // As settings stored before: the secret key under the shared context, no callback secret.
    await setStored(shop, { secret_key: sealLegacy(fake.secretKey, ownerOf(shop)) }, ['callback_secret']);

    const key = shop.secretLive;
    const customer = await newCustomer(key);
    const product = await newProduct(key);
    const order = await readyOrder(key, {
      customer_id: customer.id,
      items: [{ product_id: product.id, quantity: 10 }],
      shipping_address: { name: 'Anna Schmidt', line1: 'Hauptstraße 1', postal_code: '10115', city: 'Berlin', country: 'DE' },
    });
    const parcel = { weight_g: 1320, length_mm: 300, width_mm: 210, height_mm: 50 };
    const shipped = await call('POST', '/v1/shipments', {
      key,
      body: { order_id: order.id, carrier: 'sendcloud', service: 'postnl:standard', parcels: [parcel] },
    });
    expect(shipped.status, JSON.stringify(shipped.body)).toBe(201);

    // The callback function may not open the credentials in their place: the callback waits.
    const waiting = await fake.sendCallback(webhookUrl, harmless());
    expect(waiting.status).toBe(503);
    expect(waiting.body.error.message).toContain('npm run events -- seal-secrets');

    expect(await sealStoredCarrierSecrets({ accountId: shop.accountId })).toEqual({
      accounts: 1,
      tenants: 2,
      settings: 1,
      sealed: 1,
      skipped: 0,
    });
    const sealed = await storedSettings(shop);
    expect(sealed.secret_key).toMatch(/^enc2\.carrier-credentials\./);
    expect(sealed.callback_secret).toMatch(/^enc2\.carrier-callback-secret\./);
    expect(sealed.version).toBe(2);
    expect((await fake.sendCallback(webhookUrl, harmless())).status).toBe(200);
    const labelled = await call('GET', `/v1/shipments/${shipped.body.data.id}/tracking`, { key });
    expect(labelled.status, JSON.stringify(labelled.body)).toBe(200);

    expect(await sealStoredCarrierSecrets({ accountId: shop.accountId })).toMatchObject({ settings: 1, sealed: 0 });
    expect(await storedSettings(shop)).toEqual(sealed);
  });
});

describe('customer-token signing keys sealed before under the shared context', () => {
  it('still sign, and are sealed again as their own kind — the same keys — by seal-secrets', async () => {
    // A table of its own: the stack's signing keys stay as they are for the other tests.
    const shared = process.env[env.tableName];
    const TableName = `secret-kinds-${Date.now()}`;
    await dynamo().send(
      new CreateTableCommand({
        TableName,
        BillingMode: 'PAY_PER_REQUEST',
        AttributeDefinitions: [
          { AttributeName: 'pk', AttributeType: 'S' },
          { AttributeName: 'sk', AttributeType: 'S' },
        ],
        KeySchema: [
          { AttributeName: 'pk', KeyType: 'HASH' },
          { AttributeName: 'sk', KeyType: 'RANGE' },
        ],
      }),
    );
    process.env[env.tableName] = TableName;
    resetConfig();
    resetKeyCache();
    try {
      expect(await resealSigningKeys()).toBe('none');
      const { kid } = await ensureSigningKeys();
      const made = await signingKeys();
      const item = (await dynamo().send(new GetCommand({ TableName, Key: platformKeys.customerTokenKeys }))).Item!;
      expect(item.current.private_sealed).toMatch(/^enc2\.customer-token-signing-key\./);
      // As stored before: the private half under the shared context.
      const legacy = sealLegacy(JSON.stringify(made.current.private_jwk), `customer-token-signing-key:${kid}`);
      await dynamo().send(
        new UpdateCommand({
          TableName,
          Key: platformKeys.customerTokenKeys,
          UpdateExpression: 'SET #current.private_sealed = :legacy',
          ExpressionAttributeNames: { '#current': 'current' },
          ExpressionAttributeValues: { ':legacy': legacy },
        }),
      );
      resetKeyCache();
      expect((await signingKeys()).current.private_jwk).toEqual(made.current.private_jwk);

      expect(await resealSigningKeys()).toBe('sealed-now');
      const resealed = (await dynamo().send(new GetCommand({ TableName, Key: platformKeys.customerTokenKeys }))).Item!;
      expect(resealed.current.kid).toBe(kid);
      expect(resealed.current.private_sealed).toMatch(/^enc2\.customer-token-signing-key\./);
      resetKeyCache();
      expect((await signingKeys()).current.private_jwk).toEqual(made.current.private_jwk);
      expect(await resealSigningKeys()).toBe('current');
    } finally {
      process.env[env.tableName] = shared;
      resetConfig();
      resetKeyCache();
      await dynamo().send(new DeleteTableCommand({ TableName }));
    }
  });
});
