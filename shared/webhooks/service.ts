/**
 * Webhook registrations: create, read, change, delete, rotate the secret. URLs pass the SSRF guard
 * (ssrf.ts) before anything is written; the secret is shown in full only in the answers
 * to create and rotate-secret, and stored sealed (secrets.ts).
 */
import { checkWebhookUrl, isNameNotFound, resolveTarget, UnsafeUrlError } from './ssrf';
import { generateSecret, ROTATION_OVERLAP_MS, secretHint } from './signing';
import type { Tenant } from '#shared/auth/principal';
import { config } from '#shared/config';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { nextId } from '#shared/db/counters';
import { ValidationError } from '#shared/errors';
import { logger } from '#shared/logger';
import * as repo from './repository';
import { sealSecret } from './secrets';
import type { Webhook, WebhookCreate, WebhookUpdate } from './schema';
import { storedWebhook, type WebhookRecord } from './stored';

const withRetry = <T>(operation: () => Promise<T>): Promise<T> => retryOnVersionConflict('webhook', operation);

/**
 * The public view: the secret in full only for the answers to create and rotate-secret (`shown`,
 * the plaintext just made), its hint elsewhere (a registration stored before hints were kept
 * holds its plaintext secret, which gives the hint).
 */
export const presentWebhook = (record: WebhookRecord, shown?: string): Webhook =>
  storedWebhook.view({ ...record, secret: shown ?? record.secret_hint ?? secretHint(record.secret) });

/**
 * Refuses URLs that are, or resolve to, non-public addresses (422 on `url`). A name that does not
 * resolve (yet) is accepted: it cannot reach anything now, and every delivery checks again.
 */
export async function assertSafeUrl(url: string): Promise<void> {
  const policy = { localMode: config().localMode };
  const refuse = (message: string) => new ValidationError('The webhook URL is not allowed', [{ field: 'url', message }]);
  try {
    await resolveTarget(checkWebhookUrl(url, policy), policy);
  } catch (error) {
    if (error instanceof UnsafeUrlError) throw refuse(error.message);
    if (isNameNotFound(error)) return;
    // DNS could not be asked (timeout, resolver down): not the caller's fault; delivery re-checks.
    logger.warn('webhook URL not resolvable at registration', { error: (error as Error).message });
  }
}

export async function createWebhook(tenant: Tenant, input: WebhookCreate): Promise<Webhook> {
  await assertSafeUrl(input.url);
  const existing = await repo.listWebhooks(tenant);
  if (existing.length >= repo.MAX_WEBHOOKS_PER_TENANT) throw repo.tooManyWebhooks();
  const id = await nextId(tenant, 'webhook');
  const now = new Date().toISOString();
  const secret = generateSecret();
  const record: WebhookRecord = {
    id,
    url: input.url,
    events: input.events,
    active: input.active,
    description: input.description ?? null,
    secret: await sealSecret(tenant, id, secret),
    secret_hint: secretHint(secret),
    created_at: now,
    updated_at: now,
    version: 1,
    previous_secret: null,
    previous_secret_expires_at: null,
  };
  await repo.insertWebhook(tenant, record);
  return presentWebhook(record, secret);
}

export async function getWebhook(tenant: Tenant, id: number): Promise<Webhook> {
  return presentWebhook(await repo.requireWebhook(tenant, id));
}

export async function listWebhooks(tenant: Tenant, page: number, perPage: number): Promise<{ items: Webhook[]; total: number }> {
  const all = (await repo.listWebhooks(tenant)).reverse(); // newest first
  return { items: all.slice((page - 1) * perPage, page * perPage).map((record) => presentWebhook(record)), total: all.length };
}

export async function updateWebhook(tenant: Tenant, id: number, changes: WebhookUpdate): Promise<Webhook> {
  if (changes.url !== undefined) await assertSafeUrl(changes.url);
  return withRetry(async () => {
    const before = await repo.requireWebhook(tenant, id);
    const after: WebhookRecord = {
      ...before,
      url: changes.url ?? before.url,
      events: changes.events ?? before.events,
      active: changes.active ?? before.active,
      description: changes.description === undefined ? before.description : changes.description,
      updated_at: new Date().toISOString(),
    };
    await repo.saveWebhook(tenant, before, after);
    return presentWebhook({ ...after, version: before.version + 1 });
  });
}

export async function deleteWebhook(tenant: Tenant, id: number): Promise<{ id: number; deleted: true; url: string }> {
  return withRetry(async () => {
    const record = await repo.requireWebhook(tenant, id);
    await repo.deleteWebhook(tenant, record);
    return { id, deleted: true as const, url: record.url };
  });
}

/**
 * New secret; the current one becomes the previous one and keeps signing (as a second signature)
 * for 24 h, so receivers can switch without missing a delivery. A second rotation within those
 * 24 h drops the older previous secret.
 */
export async function rotateSecret(tenant: Tenant, id: number): Promise<Webhook> {
  return withRetry(async () => {
    const before = await repo.requireWebhook(tenant, id);
    const now = new Date();
    const secret = generateSecret();
    const after: WebhookRecord = {
      ...before,
      secret: await sealSecret(tenant, id, secret),
      secret_hint: secretHint(secret),
      // Moved as it is stored (sealed; a plaintext secret from before sealing existed is sealed now).
      previous_secret: await sealSecret(tenant, id, before.secret),
      previous_secret_expires_at: new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString(),
      updated_at: now.toISOString(),
    };
    await repo.saveWebhook(tenant, before, after);
    return presentWebhook({ ...after, version: before.version + 1 }, secret);
  });
}

/**
 * What an idempotent replay of create or rotate-secret may show: the secret is shown once, so
 * the stored answer carries only its hint (the first answer keeps the full secret).
 */
export function withSecretHint(webhook: Webhook): Webhook {
  return { ...webhook, secret: secretHint(webhook.secret) };
}
