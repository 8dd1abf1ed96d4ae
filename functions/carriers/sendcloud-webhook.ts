/**
 * Sendcloud's callbacks: no key (Sendcloud cannot send one); the path's token names the tenant and
 * the `Sendcloud-Signature` over the raw body authenticates the call (shared/shipments/callbacks.ts).
 */
import { ok } from '#shared/http/envelope';
import { definePublicHandler } from '#shared/http/public-handler';
import { receiveSendcloudCallback } from '#shared/shipments/callbacks';
import * as shipmentOperations from '#shared/shipments/contract';

export const handler = definePublicHandler(shipmentOperations.sendcloudWebhook, async ({ params, headers, event }) => {
  const raw = event.body ?? '';
  const bytes = event.isBase64Encoded ? Buffer.from(raw, 'base64') : Buffer.from(raw, 'utf8');
  const signature = Object.entries(headers ?? {}).find(([name]) => name.toLowerCase() === 'sendcloud-signature')?.[1];
  return ok(await receiveSendcloudCallback(params.token, bytes, signature));
});
