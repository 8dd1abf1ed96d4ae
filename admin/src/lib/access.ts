/** What the signed-in key may do, by the same scope rules the API applies (shared/auth/scopes.ts). */
import { grants } from '#shared/auth/scopes';
import type { Account } from '../api/types';

export const canReadWebhooks = (account: Account): boolean => grants(account.key.scopes, 'webhooks:read');
export const canWriteWebhooks = (account: Account): boolean => grants(account.key.scopes, 'webhooks:write');

/** The sections of the shop's day and the scope groups they read and change. */
export type Area = 'orders' | 'production' | 'invoices' | 'shipments' | 'files' | 'events' | 'customers';

export const canRead = (account: Account, area: Area): boolean => grants(account.key.scopes, `${area}:read`);
/** `events` and `files` have no writes in the panel; `events:write` does not exist. */
export const canWrite = (account: Account, area: Exclude<Area, 'events'>): boolean => grants(account.key.scopes, `${area}:write`);

/** Only secret keys belong in the panel: publishable keys are public by design and reach nothing here. */
export function keyFormatProblem(input: string): string | undefined {
  const key = input.trim();
  if (!key) return 'Paste a secret API key.';
  if (/^pk_(test|live)_/.test(key))
    return 'This is a publishable key (pk_…), meant for storefronts. Sign in with a secret key (sk_test_… or sk_live_…).';
  if (!/^sk_(test|live)_[A-Za-z0-9]+$/.test(key)) return 'A secret key starts with sk_test_ or sk_live_ followed by letters and digits.';
  return undefined;
}

/** `sk_test_AbCd…wXyZ`: enough to recognise a key on screen without showing it whole. */
export function maskKey(key: string): string {
  const match = /^(sk|pk)_(test|live)_/.exec(key);
  const prefixLength = match ? match[0].length : 0;
  if (key.length <= prefixLength + 8) return `${key.slice(0, prefixLength)}…`;
  return `${key.slice(0, prefixLength + 4)}…${key.slice(-4)}`;
}
