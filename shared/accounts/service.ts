/**
 * Accounts and API keys: creation, listing, revocation, plans, and the key resolution the
 * authorizer uses. Used by the accounts CLI, the local runner's demo account and the authorizer.
 */
import { generateApiKey, hashApiKey, keyPrefix, parseApiKey, type KeyKind, type Mode } from '#shared/auth/keys';
import type { Principal } from '#shared/auth/principal';
import { invalidCidrs } from '#shared/auth/ip-allowlist';
import { isScope, publishableScopes } from '#shared/auth/scopes';
import { retryOnVersionConflict } from '#shared/db/optimistic';
import { NotFoundError, ValidationError } from '#shared/errors';
import { prefixedId, randomToken } from '#shared/ids';
import { isPlan, plans, publishablePerClient, type Plan } from './plans';
import * as repo from './repository';
import { emptyCompany, type Company } from './company';
import type { AccountUpdateInput, AccountView, CompanyInput } from './schema';
import { storedCompany } from './stored';
import { accountTaxSettings, mergeTaxRates } from './tax';
import type { Account, AccountRecord, ApiKeyRecord } from './repository';

export type { Account, AccountRecord, ApiKeyRecord };

export interface IssuedKey extends ApiKeyRecord {
  /** The full key, returned only here. */
  key: string;
}

export interface NewAccount {
  account: Account;
  keys: { secret_test: IssuedKey; secret_live: IssuedKey; publishable_test: IssuedKey; publishable_live: IssuedKey };
}

function assertPlan(plan: string): asserts plan is Plan {
  if (!isPlan(plan)) {
    throw new ValidationError('Unknown plan', [{ field: 'plan', message: `must be one of ${Object.keys(plans).join(', ')}` }]);
  }
}

export async function createAccount(input: { name: string; plan: string; currency?: string; taxRate?: number }): Promise<NewAccount> {
  assertPlan(input.plan);
  if (!input.name.trim()) throw new ValidationError('An account needs a name', [{ field: 'name', message: 'Required' }]);
  const now = new Date().toISOString();
  const record: AccountRecord = {
    id: `acct_${randomToken(16)}`,
    plan: input.plan,
    currency: input.currency ?? 'EUR',
    tax_rate: input.taxRate ?? 19,
    rate_limit_per_minute: null,
    rate_limit_per_hour: null,
    usage_key_id: null,
    usage_key: null,
    usage_keys: [],
    placeholder_image_url: null,
    allowed_ips: [],
    created_at: now,
    updated_at: now,
  };
  const settings = { name: input.name.trim(), company: null, tax_rates: null, shipping_tax_category: 'standard' as const, updated_at: now };
  await repo.putAccount(record, settings);
  const account: Account = {
    ...record,
    name: settings.name,
    company: null,
    tax_rates: null,
    shipping_tax_category: 'standard',
    settings_updated_at: now,
  };
  const [secret_test, secret_live, publishable_test, publishable_live] = await Promise.all([
    createApiKey({ accountId: account.id, mode: 'test', kind: 'secret', scopes: ['*'] }),
    createApiKey({ accountId: account.id, mode: 'live', kind: 'secret', scopes: ['*'] }),
    createApiKey({ accountId: account.id, mode: 'test', kind: 'publishable' }),
    createApiKey({ accountId: account.id, mode: 'live', kind: 'publishable' }),
  ]);
  return { account, keys: { secret_test, secret_live, publishable_test, publishable_live } };
}

export async function createApiKey(input: { accountId: string; mode: Mode; kind: KeyKind; scopes?: string[] }): Promise<IssuedKey> {
  if (!(await repo.getAccountRecord(input.accountId))) {
    throw new ValidationError('Unknown account', [{ field: 'account', message: `no account ${input.accountId}` }]);
  }
  // Publishable keys are for storefronts: their scopes are fixed, whatever is asked for.
  const scopes = input.kind === 'publishable' ? [...publishableScopes] : (input.scopes ?? ['*']);
  const unknown = scopes.filter((scope) => !isScope(scope));
  if (unknown.length || scopes.length === 0) {
    throw new ValidationError('Unknown scope', [{ field: 'scopes', message: `unknown: ${unknown.join(', ') || '(none given)'}` }]);
  }
  const key = generateApiKey(input.kind, input.mode);
  const record: ApiKeyRecord = {
    key_id: prefixedId('key', 8),
    account_id: input.accountId,
    mode: input.mode,
    kind: input.kind,
    scopes,
    prefix: keyPrefix(key),
    created_at: new Date().toISOString(),
    revoked_at: null,
    allowed_ips: [],
  };
  await repo.putApiKey(record, hashApiKey(key));
  return { ...record, key };
}

export const listAccounts = repo.listAccounts;

/** The operator's tools that go through every account, or the one named (an unknown one is a 404): their ids. */
export async function accountIdsOf(options: { accountId?: string } = {}): Promise<string[]> {
  if (options.accountId === undefined) return (await repo.listAccounts()).map((account) => account.id);
  if (!(await repo.getAccount(options.accountId, true))) throw new NotFoundError('account', options.accountId);
  return [options.accountId];
}
export const listApiKeys = repo.listApiKeys;
export const getAccount = repo.getAccount;
export const getAccountRecord = repo.getAccountRecord;
export const revokeApiKey = repo.revokeApiKey;

const assertRate = (value: number | undefined, field: string) => {
  if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
    throw new ValidationError('Invalid rate', [{ field, message: 'must be a positive integer' }]);
  }
};

/** Sets the plan; a custom per-minute figure and an hourly cap are optional (omitted: removed). */
export async function setPlan(accountId: string, plan: string, ratePerMinute?: number, ratePerHour?: number): Promise<AccountRecord> {
  assertPlan(plan);
  assertRate(ratePerMinute, 'rpm');
  assertRate(ratePerHour, 'rph');
  return repo.updateAccount(accountId, { plan, rate_limit_per_minute: ratePerMinute, rate_limit_per_hour: ratePerHour });
}

function assertCidrs(cidrs: string[]) {
  const invalid = invalidCidrs(cidrs);
  if (invalid.length) throw new ValidationError('Invalid CIDR', [{ field: 'cidrs', message: `not a CIDR: ${invalid.join(', ')}` }]);
}

/** Restricts the account (or, with a key id, one key) to source addresses in `cidrs`; [] lifts it. */
export async function setAllowedIps(accountId: string, cidrs: string[], keyId?: string): Promise<AccountRecord | ApiKeyRecord> {
  assertCidrs(cidrs);
  if (keyId) return repo.setKeyAllowedIps(accountId, keyId, cidrs);
  return repo.updateAccount(accountId, { allowed_ips: cidrs });
}

/**
 * Records the account's API Gateway usage identifier keys, one per mode and key kind (deployed
 * stages); they supersede the account's first single key, which is forgotten.
 */
export async function setUsageKeys(accountId: string, usageKeys: AccountRecord['usage_keys']): Promise<AccountRecord> {
  return repo.updateAccount(accountId, { usage_keys: usageKeys, usage_key_id: null, usage_key: null });
}

/** Effective limits of the secret keys (per account and mode): the custom figure, else the plan's. */
export function limitsOf(account: AccountRecord): { perMinute: number; perHour?: number } {
  return {
    perMinute: account.rate_limit_per_minute ?? plans[account.plan],
    ...(account.rate_limit_per_hour ? { perHour: account.rate_limit_per_hour } : {}),
  };
}

/**
 * The limits a key of this kind is counted against: the account's for secret keys; for
 * publishable keys (storefronts) their own figure per key and client address, apart from the
 * secret keys' quota and without the hourly cap (docs/platform.md).
 */
export function keyLimitsOf(account: AccountRecord, kind: KeyKind): { perMinute: number; perHour?: number } {
  const limits = limitsOf(account);
  return kind === 'secret' ? limits : { perMinute: publishablePerClient(limits.perMinute) };
}

/** The gateway usage key a request with this mode and key kind is throttled under (deployed stages). */
export function usageKeyOf(account: AccountRecord, mode: Mode, kind: KeyKind): string | undefined {
  const own = account.usage_keys.find((key) => key.mode === mode && key.kind === kind);
  return own?.value ?? account.usage_key ?? undefined;
}

const optional = <K extends string, V>(name: K, value: V | undefined): { [P in K]?: V } =>
  (value === undefined ? {} : { [name]: value }) as { [P in K]?: V };

export type KeyResolution =
  | { status: 'ok'; principal: Principal }
  /** A known key that no longer works: its tenant is known, so the refusal can be audited. */
  | { status: 'revoked'; tenant: { accountId: string; mode: Mode }; keyId: string; keyPrefix: string }
  | { status: 'unknown' };

/**
 * Resolves a presented key to the caller. Anything that is not a known, unrevoked key of an
 * existing account is refused (the authorizer answers 401).
 */
export async function resolveApiKey(key: string): Promise<KeyResolution> {
  const parsed = parseApiKey(key);
  if (!parsed) return { status: 'unknown' };
  const found = await repo.findKeyWithAccount(hashApiKey(key));
  // The key's own fields must agree with its shape (defence against a tampered item).
  if (!found || found.key.mode !== parsed.mode || found.key.kind !== parsed.kind) return { status: 'unknown' };
  if (found.key.revoked_at) {
    return {
      status: 'revoked',
      tenant: { accountId: found.account.id, mode: found.key.mode },
      keyId: found.key.key_id,
      keyPrefix: found.key.prefix,
    };
  }
  return {
    status: 'ok',
    principal: {
      accountId: found.account.id,
      mode: found.key.mode,
      keyId: found.key.key_id,
      keyPrefix: found.key.prefix,
      kind: found.key.kind,
      scopes: found.key.scopes,
      plan: found.account.plan,
      limits: keyLimitsOf(found.account, found.key.kind),
      accountAllowedIps: found.account.allowed_ips,
      keyAllowedIps: found.key.allowed_ips,
      ...optional('usageKey', usageKeyOf(found.account, found.key.mode, found.key.kind)),
    },
  };
}

/** The calling key's account, as `GET /v1/account` shows it (what a dashboard needs to greet its user). */
export async function describeCaller(principal: Principal): Promise<AccountView> {
  const account = await repo.getAccount(principal.accountId);
  if (!account) throw new NotFoundError('account', principal.accountId);
  return accountView(principal, account);
}

/** The account as `GET /v1/account` shows it to the calling key. */
function accountView(principal: Principal, account: Account): AccountView {
  const limits = limitsOf(account);
  const tax = accountTaxSettings(account);
  return {
    id: account.id,
    name: account.name,
    plan: account.plan,
    currency: account.currency,
    tax_rate: tax.rates.standard,
    tax_rates: tax.rates,
    shipping_tax_category: tax.shipping_tax_category,
    mode: principal.mode,
    limits: { per_minute: limits.perMinute, per_hour: limits.perHour ?? null },
    // The account's routes are closed to customer tokens (route table): the caller is a key.
    key: { id: principal.keyId, prefix: principal.keyPrefix, kind: principal.kind as KeyKind, scopes: principal.scopes },
    company: account.company === null ? null : storedCompany.view(account.company),
  };
}

/** `PUT /v1/account`: the account's name and company details, answered as `GET /v1/account` shows them. */
export async function updateCallerAccount(principal: Principal, input: AccountUpdateInput): Promise<AccountView> {
  return accountView(principal, await updateAccountSettings(principal.accountId, input));
}

/** The company after `changes`: fields sent replace, null clears, the rest stay. */
export function mergeCompany(current: Company | null, changes: CompanyInput): Company {
  const merged: Company = { ...(current ?? emptyCompany()) };
  for (const [name, value] of Object.entries(changes) as [keyof CompanyInput, unknown][]) {
    if (value === undefined) continue;
    if (name === 'address' && value !== null) {
      const address = value as Record<string, string | null | undefined>;
      merged.address = {
        name: address.name!,
        company: address.company ?? null,
        line1: address.line1!,
        line2: address.line2 ?? null,
        postal_code: address.postal_code!,
        city: address.city!,
        region: address.region ?? null,
        country: address.country!,
      };
    } else if (name === 'payment_terms_days' || name === 'quote_validity_days') {
      merged[name] = value as number;
    } else {
      (merged as unknown as Record<string, unknown>)[name] = value;
    }
  }
  return merged;
}

/**
 * `PUT /v1/account` and `accounts set-company`: the account's name and company details. The
 * settings are read and written back on condition that they did not change meanwhile (their
 * `updated_at`) — read again and retried when they did — so two edits of different company fields
 * never lose one another.
 */
export async function updateAccountSettings(accountId: string, input: AccountUpdateInput): Promise<Account> {
  return retryOnVersionConflict('account', async () => {
    const account = await repo.getAccount(accountId, true);
    if (!account) throw new NotFoundError('account', accountId);
    const rates = mergeTaxRates(account, input);
    return repo.replaceAccountSettings(account, {
      ...(input.name === undefined ? {} : { name: input.name }),
      ...(input.company === undefined ? {} : { company: mergeCompany(account.company, input.company) }),
      ...(rates === undefined ? {} : { tax_rates: rates }),
      ...(input.shipping_tax_category === undefined ? {} : { shipping_tax_category: input.shipping_tax_category }),
    });
  });
}
