/**
 * The Print Shop API SDK: the typed operations and types generated from the OpenAPI document
 * (./generated, `npm run sdk`), a client factory with retries, idempotency keys and
 * auto-pagination (./client.ts), and webhook verification (./webhooks.ts).
 */
export * from './generated';
export {
  createPrintShop,
  paginate,
  type ListPage,
  type ListPageReader,
  type ListQuery,
  type PrintShop,
  type PrintShopOptions,
} from './client';
export { isRetryable, retryDelay, retryingFetch, type RetryOptions } from './retry';
export {
  DEFAULT_TOLERANCE_SECONDS,
  verifyWebhook,
  WebhookVerificationError,
  type WebhookEvent,
  type WebhookHeaders,
  type WebhookRefusal,
} from './webhooks';
