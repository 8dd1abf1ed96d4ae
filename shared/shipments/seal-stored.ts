/**
 * The carrier settings' part of the operator's `npm run events -- seal-secrets [--account ID]`
 * (never a request path): settings stored before each kind of secret had its own encryption
 * context hold the secret key sealed under the one shared context (`enc1.…`) and no callback
 * secret. Each is sealed again — the secret key as `carrier-credentials`, and a copy of it as the
 * `carrier-callback-secret` the callback function verifies with (Sendcloud signs with the secret
 * key unless the account sets a webhook signature key) — in one UpdateItem conditional on the
 * version read, which it bumps; settings that changed meanwhile are read again (three attempts).
 * Walks the accounts (or one) and Queries each tenant's settings: no Scan. A second run finds
 * nothing to do.
 */
import { accountIdsOf } from '#shared/accounts/service';
import { MODES } from '#shared/auth/keys';
import type { Tenant } from '#shared/auth/principal';
import * as repo from './repository';
import { resealedSettingsSecrets } from './settings';
import type { CarrierSettingsRecord } from './stored';

const MAX_ATTEMPTS = 3;

export interface CarrierSealReport {
  accounts: number;
  tenants: number;
  /** Carrier settings looked at. */
  settings: number;
  /** Settings written: sealed again under their kinds' own contexts. */
  sealed: number;
  /** Settings that kept changing meanwhile, still to do: run again. */
  skipped: number;
}

/** Seals one carrier's settings again when they need it: 'sealed-now', 'current' (nothing to do), 'gone' or 'changed-meanwhile'. */
export async function sealCarrierSettings(
  tenant: Tenant,
  read: CarrierSettingsRecord,
): Promise<'sealed-now' | 'current' | 'gone' | 'changed-meanwhile'> {
  let settings: CarrierSettingsRecord | undefined = read;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    if (!settings) return 'gone';
    const sealed = await resealedSettingsSecrets(tenant, settings);
    if (!sealed) return 'current';
    if (await repo.resealCarrierSettings(tenant, settings, sealed)) return 'sealed-now';
    settings = await repo.readCarrierSettings(tenant, read.carrier); // set again meanwhile: look anew
  }
  return 'changed-meanwhile';
}

/** Seals again the carrier settings that need it, of every account (test and live) or of one. */
export async function sealStoredCarrierSecrets(options: { accountId?: string } = {}): Promise<CarrierSealReport> {
  const accountIds = await accountIdsOf(options);
  const report: CarrierSealReport = { accounts: accountIds.length, tenants: 0, settings: 0, sealed: 0, skipped: 0 };
  for (const accountId of accountIds) {
    for (const mode of MODES) {
      const tenant: Tenant = { accountId, mode };
      report.tenants++;
      for (const settings of await repo.listCarrierSettings(tenant)) {
        report.settings++;
        const outcome = await sealCarrierSettings(tenant, settings);
        if (outcome === 'sealed-now') report.sealed++;
        if (outcome === 'changed-meanwhile') report.skipped++;
      }
    }
  }
  return report;
}
