import { describe, expect, it } from 'vitest';
import { PLAN_NAMES, uploadQuotas } from '#shared/accounts/plans';
import { QuotaExceededError } from '#shared/errors';
import { nextQuotaDay, quotaDay, quotaExpiry, quotaRefusal, uploadQuotaOf } from '#shared/files/quota';
import { statusOf, toErrorResult } from '#shared/http/error-mapping';

const NOW = new Date('2026-03-01T22:00:00.000Z');

describe('daily upload quotas', () => {
  it('grow with the plan, files and bytes alike; a plan unknown here gets the smallest', () => {
    const [starter, professional, enterprise] = PLAN_NAMES.map((plan) => uploadQuotas[plan]);
    expect(starter!.files).toBeLessThan(professional!.files);
    expect(professional!.files).toBeLessThan(enterprise!.files);
    expect(starter!.bytes).toBeLessThan(professional!.bytes);
    expect(professional!.bytes).toBeLessThan(enterprise!.bytes);
    expect(uploadQuotaOf('professional')).toEqual({ plan: 'professional', ...uploadQuotas.professional });
    expect(uploadQuotaOf('legacy-gold')).toEqual({ plan: 'legacy-gold', ...uploadQuotas.starter });
  });

  it('count by UTC day, start again at the next midnight, and keep their counter a day past it', () => {
    expect(quotaDay(NOW)).toBe('2026-03-01');
    expect(quotaDay(new Date('2026-03-01T23:59:59.999Z'))).toBe('2026-03-01');
    expect(nextQuotaDay(NOW).toISOString()).toBe('2026-03-02T00:00:00.000Z');
    expect(quotaExpiry(NOW)).toBe(Date.parse('2026-03-03T00:00:00.000Z') / 1000);
  });

  it('refuse with 429 when the files are used up, else 413 for the bytes, naming the limit and saying when it starts again', () => {
    const quota = uploadQuotaOf('starter');
    const files = quotaRefusal(quota, { files: quota.files, bytes: 10 }, 5, NOW);
    expect(files).toBeInstanceOf(QuotaExceededError);
    expect(files).toMatchObject({
      code: 'upload_quota_exceeded',
      retryAfterSeconds: 7200,
      message: `The daily upload quota is used up: ${quota.files} files a day on the starter plan; it starts again at 2026-03-02T00:00:00.000Z`,
      details: [{ field: 'files_per_day', message: `${quota.files} of ${quota.files} uploaded today` }],
    });
    const bytes = quotaRefusal(quota, { files: 3, bytes: quota.bytes - 10 }, 11, NOW);
    expect(bytes).toMatchObject({
      code: 'upload_volume_exceeded',
      details: [{ field: 'bytes_per_day', message: `${quota.bytes - 10} of ${quota.bytes} uploaded today; this upload has 11` }],
    });
    expect(statusOf.upload_quota_exceeded).toBe(429);
    expect(statusOf.upload_volume_exceeded).toBe(413);
    const answer = toErrorResult(files, 'req_1');
    expect(answer.statusCode).toBe(429);
    expect(answer.headers?.['Retry-After']).toBe('7200');
  });
});
