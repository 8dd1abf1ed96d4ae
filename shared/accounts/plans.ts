/**
 * Plans and the figures derived from them (docs/platform.md: rate limits). Pure data and
 * arithmetic: the handlers count the exact limits (shared/limits/), API Gateway enforces the
 * coarse backstop sized here (infra/usage-plans.ts, scripts/aws/usage-keys.ts).
 */
import { KEY_KINDS, MODES, type KeyKind, type Mode } from '#shared/auth/keys';

/** Requests per minute per account and mode for the secret keys, by plan (spec: Limits). A custom figure on the account wins. */
export const plans = { starter: 100, professional: 500, enterprise: 1000 } as const;

export type Plan = keyof typeof plans;

const GiB = 1024 * 1024 * 1024;

/**
 * Uploads per tenant (account and mode) and UTC day, by plan (docs/files.md#quotas): files, and
 * bytes — a presigned upload counts its declared size when it is declared. Storage and the work on
 * files cost per upload; the figures leave a busy shop far from them.
 */
export const uploadQuotas: Readonly<Record<Plan, { files: number; bytes: number }>> = {
  starter: { files: 500, bytes: 5 * GiB },
  professional: { files: 5000, bytes: 50 * GiB },
  enterprise: { files: 50_000, bytes: 500 * GiB },
};

/**
 * Uploads of one customer (a customer access token) a UTC day, by the shop's plan: counted apart
 * from the shop's own quota (above), which customers never spend — anyone may register, so a
 * customer's uploads must not use up the shop's day. Room for a day's artwork of a large job.
 */
export const customerUploadQuotas: Readonly<Record<Plan, { files: number; bytes: number }>> = {
  starter: { files: 50, bytes: 2 * GiB },
  professional: { files: 100, bytes: 5 * GiB },
  enterprise: { files: 200, bytes: 10 * GiB },
};

export const PLAN_NAMES = Object.keys(plans) as [Plan, ...Plan[]];

export const isPlan = (value: string): value is Plan => Object.hasOwn(plans, value);

/**
 * Publishable keys are counted per key and client address (a storefront visitor: an IPv4 address
 * or an IPv6 /64), apart from the secret keys: a fifth of the account's per-minute figure, at
 * least 60 — starter 60, professional 100, enterprise 200. No hourly cap applies to them.
 */
export const publishablePerClient = (perMinute: number): number => Math.max(60, Math.ceil(perMinute / 5));

/**
 * All storefront (publishable) traffic of one account and mode together is bounded only at the
 * gateway, at ten times the account's per-minute figure: a flood through one public key cannot
 * eat the stage's capacity, and it never touches the secret keys' backstop.
 */
export const STOREFRONT_CEILING_FACTOR = 10;

/** The per-minute figure a usage key of this kind is sized for at the gateway. */
export function gatewayFigure(perMinute: number, kind: KeyKind): number {
  return kind === 'secret' ? perMinute : perMinute * STOREFRONT_CEILING_FACTOR;
}

/**
 * The gateway's usage plans: one per tier (requests per minute), the last without a throttle of
 * its own (the stage's throttle still applies). A usage key sits in the smallest tier that holds
 * its figure, so custom figures are followed without a usage plan per account.
 */
export const USAGE_TIERS = [100, 250, 500, 1000, 2500, 5000, 10_000, 25_000, 50_000] as const;
export type UsageTier = (typeof USAGE_TIERS)[number] | 'unthrottled';

export const tierFor = (perMinute: number): UsageTier => USAGE_TIERS.find((tier) => tier >= perMinute) ?? 'unthrottled';

/** Name of a tier's API Gateway usage plan on a stage (CDK creates it, the accounts CLI finds it). */
export const usagePlanName = (stage: string, tier: UsageTier): string =>
  tier === 'unthrottled' ? `print-shop-${stage}-unthrottled` : `print-shop-${stage}-tier-${tier}`;

/**
 * API Gateway usage-plan throttle (a token bucket per usage key) for a per-minute figure. The
 * handlers count fixed minute windows, so the most a client may send inside the limits is the
 * whole figure at the end of one window and again at the start of the next: a bucket of twice the
 * figure refilling at (at least) the average rate admits every such sequence (any interval of
 * length t touches at most t/60 + 2 windows). The rate is twice the average, as margin for the
 * gateway's best-effort counting. So the backstop never refuses what the plan allows; a flood
 * beyond it stops at the edge.
 */
export function usagePlanThrottle(perMinute: number): { rateLimit: number; burstLimit: number } {
  return { rateLimit: Math.ceil(perMinute / 30), burstLimit: 2 * perMinute };
}

/** One usage key per mode and key kind: test traffic and storefronts never spend the secret live keys' backstop. */
export interface UsageKeySlot {
  mode: Mode;
  kind: KeyKind;
}

export const USAGE_KEY_SLOTS: readonly UsageKeySlot[] = /* @__PURE__ */ MODES.flatMap((mode) => KEY_KINDS.map((kind) => ({ mode, kind })));

/** The tier each of an account's usage keys belongs in, from the account's per-minute figure. */
export function usageKeyTiers(perMinute: number): { slot: UsageKeySlot; tier: UsageTier }[] {
  return USAGE_KEY_SLOTS.map((slot) => ({ slot, tier: tierFor(gatewayFigure(perMinute, slot.kind)) }));
}
