/** Requests per minute per account and mode, by plan (spec: Limits). A custom figure on the account wins. */
export const plans = { starter: 100, professional: 500, enterprise: 1000 } as const;

export type Plan = keyof typeof plans;

export const isPlan = (value: string): value is Plan => Object.hasOwn(plans, value);
