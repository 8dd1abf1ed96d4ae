/**
 * Webhook signing secrets at rest (shared/webhooks/secrets.ts, shared/crypto/envelope.ts): the
 * stored registration never holds a secret in plaintext — neither the current one nor the previous
 * one during a rotation — and deliveries still verify with the secret the API showed. A
 * registration stored before secrets were sealed (plaintext, local data) still works.
 */
import { GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '#docs/examples/verify-webhook';
import { dynamo } from '#shared/clients/dynamodb';
import { webhookKeys } from '#shared/db/keys';
import { tableName } from '#shared/db/table';
import { call } from '#test/support/http';
import { useReceiver } from '#test/support/receiver';
import { freshShop, registerForTest, type Shop } from '#test/support/webhooks';

let shop: Shop;
beforeAll(async () => {
  shop = await freshShop('Sealed Secrets Shop');
});

async function storedRegistration(id: number): Promise<Record<string, unknown>> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: webhookKeys.webhook(shop.tenant, id), ConsistentRead: true }),
  );
  return result.Item!;
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
    expect(String(item.secret)).toMatch(/^enc1\.local\./);
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
    expect(String(item.secret)).toMatch(/^enc1\./);
    expect(String(item.previous_secret)).toMatch(/^enc1\./);
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
    const legacy = 'whsec_' + Buffer.alloc(36, 7).toString('base64');
    await dynamo().send(
      new UpdateCommand({
        TableName: tableName(),
        Key: webhookKeys.webhook(shop.tenant, webhook.id),
        UpdateExpression: 'SET secret = :legacy REMOVE secret_hint',
        ExpressionAttributeValues: { ':legacy': legacy },
      }),
    );
    expect((await call('GET', `/v1/webhooks/${webhook.id}`, { key: shop.secretTest })).body.data.secret).toBe(`whsec_…${legacy.slice(-4)}`);
    await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest });
    const [request] = await hook.waitFor(1);
    expect(verifyWebhook(request!.rawBody, request!.headers, legacy)).toEqual({ ok: true });

    const rotated = (await call('POST', `/v1/webhooks/${webhook.id}/rotate-secret`, { key: shop.secretTest })).body.data;
    const item = await storedRegistration(webhook.id);
    expect(String(item.previous_secret)).toMatch(/^enc1\./);
    expectNoPlaintext(item, [legacy, rotated.secret]);
    await call('POST', `/v1/webhooks/${webhook.id}/test`, { key: shop.secretTest });
    const [, second] = await hook.waitFor(2);
    expect(verifyWebhook(second!.rawBody, second!.headers, legacy)).toEqual({ ok: true });
    expect(verifyWebhook(second!.rawBody, second!.headers, rotated.secret)).toEqual({ ok: true });
  });
});
