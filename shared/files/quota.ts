/**
 * Daily upload quotas (docs/files.md#quotas): each tenant (account and mode) takes so many files and
 * bytes a UTC day, by its plan (`uploadQuotas`, shared/accounts/plans.ts), and each of its customers
 * — a customer access token — so many of their own (`customerUploadQuotas`), counted apart: anyone
 * may register, so no customer spends the shop's quota. One counter item a day per tenant, and per
 * customer (`fileKeys.uploadQuota`), holds the day's count and bytes; an upload adds to both with one
 * conditional write that holds only while both stay within the quota (repository.ts
 * `reserveUpload`), so concurrent uploads get exactly what is left and never more. The pure rules
 * are here: whose quota, which day, and the refusal.
 */
import { customerUploadQuotas, isPlan, uploadQuotas, type Plan } from '#shared/accounts/plans';
import { QuotaExceededError } from '#shared/errors';

export interface UploadQuota {
  plan: string;
  files: number;
  bytes: number;
  /** The customer whose own quota it is (a customer token's upload); undefined: the tenant's. */
  customerId?: number;
}

/**
 * The quota an upload counts on: the tenant's by its plan, or — for a customer token — that
 * customer's own. A plan this version does not know (none should reach it) gets the smallest.
 */
export function uploadQuotaOf(plan: string, customerId?: number): UploadQuota {
  const known: Plan = isPlan(plan) ? plan : 'starter';
  return customerId === undefined ? { plan, ...uploadQuotas[known] } : { plan, ...customerUploadQuotas[known], customerId };
}

/** The UTC day an upload counts on (`2026-03-01`). */
export const quotaDay = (now: Date): string => now.toISOString().slice(0, 10);

/** When the day's quota starts again: the next UTC midnight. */
export const nextQuotaDay = (now: Date): Date => new Date(Date.parse(quotaDay(now)) + 24 * 3600 * 1000);

/** The counter item lives a day past its own (epoch seconds): long enough to be read on the day, no longer. */
export const quotaExpiry = (now: Date): number => Math.floor(nextQuotaDay(now).getTime() / 1000) + 24 * 3600;

/** The day's use so far, as the counter held it when an upload was refused. */
export interface QuotaUse {
  files: number;
  bytes: number;
}

/**
 * Why an upload of `bytes` does not fit: the day's files used up (429 `upload_quota_exceeded`), else
 * its bytes (413 `upload_volume_exceeded`); each names the limit and the use, and says when it starts again.
 */
export function quotaRefusal(quota: UploadQuota, used: QuotaUse, bytes: number, now: Date): QuotaExceededError {
  const again = nextQuotaDay(now);
  const retryAfter = Math.max(1, Math.ceil((again.getTime() - now.getTime()) / 1000));
  const whose = quota.customerId === undefined ? `on the ${quota.plan} plan` : 'for each customer of this shop';
  if (used.files >= quota.files) {
    return new QuotaExceededError(
      'upload_quota_exceeded',
      `The daily upload quota is used up: ${quota.files} files a day ${whose}; it starts again at ${again.toISOString()}`,
      [{ field: 'files_per_day', message: `${used.files} of ${quota.files} uploaded today` }],
      retryAfter,
    );
  }
  return new QuotaExceededError(
    'upload_volume_exceeded',
    `The daily upload volume would be exceeded: ${quota.bytes} bytes a day on the ${quota.plan} plan; it starts again at ${again.toISOString()}`,
    [{ field: 'bytes_per_day', message: `${used.bytes} of ${quota.bytes} uploaded today; this upload has ${bytes}` }],
    retryAfter,
  );
}
