/**
 * Fixed rate-limit windows (per minute, optionally per hour). Pure functions: the counters live
 * in DynamoDB (shared/limits/rate-limit.ts).
 */
export type WindowKind = 'minute' | 'hour';

const lengthOf: Record<WindowKind, number> = { minute: 60, hour: 3600 };

export interface Window {
  kind: WindowKind;
  /** Unix seconds at which the window started. */
  start: number;
  /** Unix seconds of the next window (X-RateLimit-Reset). */
  reset: number;
}

export function windowAt(kind: WindowKind, nowMs: number): Window {
  const length = lengthOf[kind];
  const start = Math.floor(nowMs / 1000 / length) * length;
  return { kind, start, reset: start + length };
}

/** Whole seconds until the reset, at least 1 (Retry-After). */
export function retryAfterSeconds(window: Window, nowMs: number): number {
  return Math.max(1, Math.ceil(window.reset - nowMs / 1000));
}

export interface LimitState {
  limit: number;
  remaining: number;
  reset: number;
}

/** The headers every response carries once the key is known. */
export function rateLimitHeaders(state: LimitState): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(state.limit),
    'X-RateLimit-Remaining': String(Math.max(0, state.remaining)),
    'X-RateLimit-Reset': String(state.reset),
  };
}
