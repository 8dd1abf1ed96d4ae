/** Requests per minute per account and mode, by plan (spec: Limits). A custom figure on the account wins. */
export const plans = { starter: 100, professional: 500, enterprise: 1000 } as const;

export type Plan = keyof typeof plans;

export const PLAN_NAMES = Object.keys(plans) as [Plan, ...Plan[]];

export const isPlan = (value: string): value is Plan => Object.hasOwn(plans, value);

/** Name of a plan's API Gateway usage plan on a stage (CDK creates it, the accounts CLI finds it). */
export const usagePlanName = (stage: string, plan: Plan): string => `print-shop-${stage}-${plan}`;

/**
 * API Gateway usage-plan throttle for a per-minute figure. The gateway is the coarse backstop
 * (token bucket per account key, across all stages' instances); the exact per-minute count is
 * the DynamoDB counter in the handlers. So the steady rate is twice the plan's average and the
 * burst allows ten seconds' worth of it — legitimate bursts pass, floods stop at the edge.
 */
export function usagePlanThrottle(perMinute: number): { rateLimit: number; burstLimit: number } {
  const rateLimit = Math.ceil((perMinute / 60) * 2);
  return { rateLimit, burstLimit: Math.max(10, rateLimit * 10) };
}
