/**
 * Login lockout per email: at most 10 password checks within 15 minutes (counted from the first
 * attempt of the run); further attempts for that email answer 429 with `Retry-After` until the 15
 * minutes have passed — whatever the password — while other emails are unaffected. A successful
 * login clears the count.
 *
 * An attempt is counted **before** its password is checked: a conditional increment reserves one
 * of the 10 checks (`failures < 10` in the condition), and only a request that got one runs
 * scrypt. So however many guesses arrive at once, at most 10 are checked — counting after the
 * check, concurrent guesses all passed a read of a count none of them had raised yet. Counted in
 * DynamoDB (one item per tenant and email, by the SHA-256 of the address, expiring by TTL), not in
 * a function's memory: every instance sees the same count.
 */
import { createHash } from 'node:crypto';
import type { Tenant } from '#shared/auth/principal';
import { RateLimitedError } from '#shared/errors';
import * as repo from './repository';
import type { LoginFailuresRecord } from './stored';

export const MAX_FAILURES = 10;
export const LOCKOUT_WINDOW_SECONDS = 15 * 60;

/** The stored count of one email (stored.ts): attempts in the window that started at `window_start` (Unix seconds). */
export type AttemptCount = Pick<LoginFailuresRecord, 'failures' | 'window_start'>;

/**
 * What a count means at `nowSeconds`: no window open (the next attempt starts one), a window with
 * checks left, or locked until the window ends (`retryAfter` seconds from now).
 */
export function lockoutState(
  count: AttemptCount | undefined,
  nowSeconds: number,
): { state: 'no-window' } | { state: 'open' } | { state: 'locked'; retryAfter: number } {
  if (!count || count.window_start + LOCKOUT_WINDOW_SECONDS <= nowSeconds) return { state: 'no-window' };
  if (count.failures < MAX_FAILURES) return { state: 'open' };
  return { state: 'locked', retryAfter: count.window_start + LOCKOUT_WINDOW_SECONDS - nowSeconds };
}

/** The count is kept by the SHA-256 of the address, trimmed and lower-cased: one count whatever its spelling. */
const emailHash = (email: string) => createHash('sha256').update(email.trim().toLowerCase()).digest('hex');

const locked = (retryAfter: number) => new RateLimitedError('Too many failed logins for this email; try again later', retryAfter);

/** Attempts at reserving a check: each lost race (a window started or ended meanwhile) tries once more. */
const RESERVE_ATTEMPTS = 3;

/**
 * Reserves one password check for the email — an atomic increment, conditional on a window open
 * with fewer than 10 counted — or throws the 429 while the email is locked out (so a locked email
 * costs no scrypt work). Without an open window, starts one counting this attempt (conditional on
 * none being open, so two attempts racing at its start count in one window).
 */
export async function reserveAttempt(tenant: Tenant, email: string, now = new Date()): Promise<void> {
  const hash = emailHash(email);
  const nowSeconds = Math.floor(now.getTime() / 1000);
  const windowOpen = nowSeconds - LOCKOUT_WINDOW_SECONDS;
  for (let attempt = 1; ; attempt++) {
    const reservation = await repo.countAttempt(tenant, hash, windowOpen, MAX_FAILURES);
    if (reservation.reserved) return;
    const state = lockoutState(reservation.count, nowSeconds);
    if (state.state === 'locked') throw locked(state.retryAfter);
    // No window open (or one opened since): this attempt starts one — unless a racing attempt just did.
    if (
      state.state === 'no-window' &&
      (await repo.startAttemptWindow(tenant, hash, { nowSeconds, windowOpen, expiresAt: nowSeconds + 2 * LOCKOUT_WINDOW_SECONDS }))
    ) {
      return;
    }
    // Lost a race with an attempt that opened the window: counted in that window now. Losing every
    // time (never in practice) refuses the attempt: a check not reserved is never run.
    if (attempt >= RESERVE_ATTEMPTS) throw locked(1);
  }
}

/** A successful login clears the count. */
export async function clearFailures(tenant: Tenant, email: string): Promise<void> {
  await repo.deleteAttempts(tenant, emailHash(email));
}
