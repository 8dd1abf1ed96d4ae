/**
 * Webhook signing secrets at rest: sealed with envelope encryption (shared/crypto/envelope.ts),
 * bound to their registration (tenant and webhook id), so the stored item never holds the
 * plaintext. Only the functions that create a secret (create, rotate-secret) and the one that
 * signs with it (the delivery worker) import this module — and so the KMS client; the others show
 * the stored hint (infra/secrets.ts grants the key to exactly these). The operator's
 * seal-secrets (seal-stored.ts, run from the events CLI, never deployed) imports it too.
 */
import type { Tenant } from '#shared/auth/principal';
import { isCurrentSeal, isSealed, open, seal } from '#shared/crypto/envelope';
import { webhookKeys } from '#shared/db/keys';
import type { WebhookRecord } from './stored';

/** Their own encryption context (shared/crypto/kinds.ts): only the functions granted this kind open them. */
const KIND = 'webhook-signing-secret';

/** The registration a secret belongs to: a sealed secret copied onto another registration does not open there. */
const ownerOf = (tenant: Tenant, webhookId: number) =>
  webhookKeys.webhook(tenant, webhookId).pk + '|' + webhookKeys.webhook(tenant, webhookId).sk;

/** A secret as it is stored: sealed (a secret stored before sealing existed is sealed now; a sealed one is kept as it is). */
export async function sealSecret(tenant: Tenant, webhookId: number, secret: string): Promise<string> {
  return isSealed(secret) ? secret : seal(secret, ownerOf(tenant, webhookId), KIND);
}

/**
 * A stored secret sealed as a webhook signing secret under its own context: kept when it is, sealed
 * again when it was sealed before under the shared context or stored in plaintext (the migration,
 * seal-stored.ts). Answers undefined when there is nothing to do.
 */
export async function resealSecret(tenant: Tenant, webhookId: number, stored: string): Promise<string | undefined> {
  if (isCurrentSeal(stored, KIND)) return undefined;
  const owner = ownerOf(tenant, webhookId);
  return seal(await open(stored, owner, KIND), owner, KIND);
}

/** The registration with its current and previous secret in plaintext, to sign with (never to store or show). */
export async function withOpenSecrets(tenant: Tenant, webhook: WebhookRecord): Promise<WebhookRecord> {
  const owner = ownerOf(tenant, webhook.id);
  const [secret, previous] = await Promise.all([
    open(webhook.secret, owner, KIND),
    webhook.previous_secret ? open(webhook.previous_secret, owner, KIND) : Promise.resolve(null),
  ]);
  return { ...webhook, secret, previous_secret: previous };
}
