/**
 * The webhook deliveries in the document: OpenAPI 3.0 has no top-level `webhooks` (3.1 does), so
 * they are the `callbacks` of the operation that registers a receiver (`POST /v1/webhooks`): a
 * POST to the registration's `url` whose body is `WebhookEvent`, one of the `WebhookEvent.<kind>`
 * components (discriminated by `event`), with the delivery headers and signatures of
 * docs/webhooks.md. This references every event component, and generators type the deliveries.
 */
import type { RouteConfig } from '@asteasolutions/zod-to-openapi';

interface ParameterObject {
  name: string;
  in: 'header';
  required: true;
  description: string;
  schema: { type: 'string' };
  example: string;
}

const header = (name: string, description: string, example: string): ParameterObject => ({
  name,
  in: 'header',
  required: true,
  description,
  schema: { type: 'string' },
  example,
});

/** The headers every delivery carries (shared/webhooks/payload.ts, deliveryHeaders). */
const deliveryHeaders: ParameterObject[] = [
  header('X-Webhook-Id', 'The delivery id (`wh_…`), as in the body: the same for every retry', 'wh_0dYc3K2a8Xw1kZp4Qr7Tn2Lm'),
  header('X-Webhook-Event', 'The event kind, as `event` in the body', 'order.created'),
  header('X-Webhook-Timestamp', 'Unix seconds of this attempt', '1795000000'),
  header('X-Webhook-Attempt', 'The attempt number (1, 2, …; continues across redeliveries)', '1'),
  header(
    'X-Webhook-Signature',
    'Lowercase hex HMAC-SHA256 of the exact raw body, keyed with the secret string (`whsec_…`, all of it); ' +
      'two comma-separated values for 24 h after a rotation',
    '5d41402abc4b2a76b9719d911017c592',
  ),
  header('webhook-id', 'Standard Webhooks: the delivery id', 'wh_0dYc3K2a8Xw1kZp4Qr7Tn2Lm'),
  header('webhook-timestamp', 'Standard Webhooks: Unix seconds of this attempt (signed: refuse stale ones)', '1795000000'),
  header(
    'webhook-signature',
    'Standard Webhooks: `v1,` + base64 HMAC-SHA256 of `<webhook-id>.<webhook-timestamp>.<raw body>`, keyed with the ' +
      'base64-decoded part of the secret after `whsec_`; two space-separated values for 24 h after a rotation',
    'v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=',
  ),
];

/** The `callbacks` of `POST /v1/webhooks`: what the registered URL receives, referencing `eventComponent`. */
export function webhookCallbacks(eventComponent: string): NonNullable<RouteConfig['callbacks']> {
  return {
    delivery: {
      '{$request.body#/url}': {
        post: {
          operationId: 'webhooks.delivery.receive',
          summary: 'An event delivered to the registered URL',
          // The receiver is the integrator's: it is called with no key, and verifies the signatures instead.
          security: [],
          description:
            'POSTed to the webhook’s `url` for each event it subscribes to; at least once and unordered (deduplicate on `id`, ' +
            'sort on `timestamp`). Verify the signatures over the raw body before parsing it (docs/webhooks.md).',
          parameters: deliveryHeaders,
          requestBody: {
            required: true,
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${eventComponent}` } } },
          },
          responses: {
            '2XX': { description: 'Received: the delivery succeeded (answered within 10 seconds)' },
            '4XX': { description: 'Refused (a 401 for a bad signature): the delivery is retried on its schedule' },
            '5XX': { description: 'Failed: the delivery is retried on its schedule' },
          },
        },
      },
    },
  };
}
