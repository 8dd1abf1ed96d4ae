/**
 * Seals the signing secrets that registrations stored before sealing existed still hold in
 * plaintext, and seals again those sealed before each kind of secret had its own encryption
 * context (`enc1.…`, under the one shared context) — the current one, and the previous one during
 * a rotation — as `webhook-signing-secret` under its own. The operator's
 * `npm run events -- seal-secrets [--account ID]`, never a request path. Walks the accounts (or
 * one) and Queries each tenant's registrations (account × test/live, at most 20 each): no Scan.
 *
 * Each registration is one UpdateItem, conditional on every value it seals still being the
 * stored value that was read, so a rotation that ran meanwhile is never overwritten (the registration
 * is then read again and looked at anew). It bumps `version`, as every writer of a registration
 * does, so that an update that read the plaintext before cannot write it back. A registration
 * without `secret_hint` gets it from the plaintext (reads would otherwise derive the hint from the
 * sealed form). Running it again finds nothing to do.
 */
import { accountIdsOf } from '#shared/accounts/service';
import { MODES } from '#shared/auth/keys';
import type { Tenant } from '#shared/auth/principal';
import { isCurrentSeal, isSealed } from '#shared/crypto/envelope';
import { listWebhooks, readWebhook, resealWebhookSecrets, type WebhookReseal } from './repository';
import { resealSecret } from './secrets';
import { secretHint } from './signing';
import type { WebhookRecord } from './stored';

/** Attempts per registration while concurrent writes keep changing its secrets. */
const MAX_ATTEMPTS = 3;

export interface SealReport {
  accounts: number;
  tenants: number;
  /** Registrations looked at. */
  registrations: number;
  /** Registrations written: they held at least one secret in plaintext or sealed under the shared context. */
  sealed: number;
  /** Values sealed (current and previous secrets): plaintext, or sealed before under the shared context. */
  secrets: number;
  /** Registrations still holding such values because they kept changing meanwhile: run again. */
  skipped: number;
}

export type RegistrationOutcome = 'sealed-now' | 'already-sealed' | 'gone' | 'changed-meanwhile';

/** Not yet sealed as a webhook signing secret under its own context: plaintext, or sealed under the shared context. */
const unsealed = (value: string | null): value is string => value !== null && !isCurrentSeal(value, 'webhook-signing-secret');

/** The values of `record` to seal (0, 1 or 2). */
export const plaintextSecrets = (record: WebhookRecord): number =>
  Number(unsealed(record.secret)) + Number(unsealed(record.previous_secret));

/**
 * Seals what `read` (the registration as it was read) holds in plaintext or sealed under the shared
 * context, on condition that the stored values are still those; when they changed, reads the
 * registration again and tries anew. Returns what happened and how many values were sealed.
 */
export async function sealRegistration(tenant: Tenant, read: WebhookRecord): Promise<{ outcome: RegistrationOutcome; secrets: number }> {
  let record: WebhookRecord | undefined = read;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (!record) return { outcome: 'gone', secrets: 0 };
    const count = plaintextSecrets(record);
    if (count === 0) return { outcome: 'already-sealed', secrets: 0 };
    // resealSecret answers a sealed value for every value `unsealed` picks (it is not sealed under its own context yet).
    const reseal: WebhookReseal = {};
    if (unsealed(record.secret)) {
      reseal.secret = { read: record.secret, sealed: (await resealSecret(tenant, record.id, record.secret))! };
      if (!record.secret_hint && !isSealed(record.secret)) reseal.secret_hint = secretHint(record.secret);
    }
    if (unsealed(record.previous_secret)) {
      reseal.previous_secret = { read: record.previous_secret, sealed: (await resealSecret(tenant, record.id, record.previous_secret))! };
    }
    if (await resealWebhookSecrets(tenant, record.id, reseal)) return { outcome: 'sealed-now', secrets: count };
    record = await readWebhook(tenant, read.id); // rotated, updated or deleted meanwhile: look again
  }
  return { outcome: 'changed-meanwhile', secrets: 0 };
}

/** Seals the secrets of one tenant's registrations that need it. */
export async function sealTenantSecrets(tenant: Tenant): Promise<Omit<SealReport, 'accounts' | 'tenants'>> {
  const report = { registrations: 0, sealed: 0, secrets: 0, skipped: 0 };
  for (const record of await listWebhooks(tenant)) {
    report.registrations++;
    const { outcome, secrets } = await sealRegistration(tenant, record);
    if (outcome === 'sealed-now') report.sealed++;
    if (outcome === 'changed-meanwhile') report.skipped++;
    report.secrets += secrets;
  }
  return report;
}

/** Seals the secrets that need it of every account's registrations (test and live), or of one account's. */
export async function sealStoredSecrets(options: { accountId?: string } = {}): Promise<SealReport> {
  const accountIds = await accountIdsOf(options);
  const report: SealReport = { accounts: accountIds.length, tenants: 0, registrations: 0, sealed: 0, secrets: 0, skipped: 0 };
  for (const accountId of accountIds) {
    for (const mode of MODES) {
      const tenantReport = await sealTenantSecrets({ accountId, mode });
      report.tenants++;
      report.registrations += tenantReport.registrations;
      report.sealed += tenantReport.sealed;
      report.secrets += tenantReport.secrets;
      report.skipped += tenantReport.skipped;
    }
  }
  return report;
}
