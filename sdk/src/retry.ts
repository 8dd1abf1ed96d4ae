/**
 * Retries of refused requests, as a `fetch` the generated client runs on.
 *
 * - 429 (rate limited): the request was refused before any work, so it is retried whatever its
 *   method, after `Retry-After`.
 * - 503: retried only when repeating it cannot do the work twice — a GET, HEAD, PUT, DELETE or
 *   OPTIONS, or a request that carries an `Idempotency-Key` (the API answers a repeat with the first
 *   answer).
 *
 * The wait is the answer's `Retry-After` (seconds, or an HTTP date), else an exponential backoff
 * (0.5 s, 1 s, 2 s, …). A wait longer than `maxDelayMs` is not waited for: that answer is returned.
 */

export interface RetryOptions {
  /** Retries after the first attempt (default 2; 0 turns retrying off). */
  retries?: number;
  /** The longest wait honoured, in milliseconds (default 30 000). */
  maxDelayMs?: number;
  /** How to wait (tests pass a fake clock). */
  sleep?: (ms: number) => Promise<void>;
  /** The current time in milliseconds, for an HTTP-date Retry-After. */
  now?: () => number;
}

const SAFE_TO_REPEAT = new Set(['GET', 'HEAD', 'PUT', 'DELETE', 'OPTIONS']);
const BACKOFF_MS = 500;

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Whether an answer with `status` to `request` may be retried. */
export function isRetryable(status: number, request: Request): boolean {
  if (status === 429) return true;
  if (status === 503) return SAFE_TO_REPEAT.has(request.method.toUpperCase()) || request.headers.has('Idempotency-Key');
  return false;
}

/** Milliseconds to wait before attempt `attempt + 1`: the `Retry-After` header, else the backoff. */
export function retryDelay(retryAfter: string | null, attempt: number, now: number = Date.now()): number {
  const value = retryAfter?.trim();
  if (value) {
    if (/^\d+$/.test(value)) return Number(value) * 1000;
    const date = Date.parse(value);
    if (!Number.isNaN(date)) return Math.max(0, date - now);
  }
  return BACKOFF_MS * 2 ** attempt;
}

/** `base` (the global fetch by default) with the retries above. */
export function retryingFetch(base: typeof fetch = globalThis.fetch, options: RetryOptions = {}): typeof fetch {
  const retries = options.retries ?? 2;
  const maxDelayMs = options.maxDelayMs ?? 30_000;
  const sleep = options.sleep ?? wait;
  const now = options.now ?? Date.now;
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      // A body can be read once: every attempt sends a copy.
      const response = await base(request.clone());
      if (attempt >= retries || !isRetryable(response.status, request)) return response;
      const delay = retryDelay(response.headers.get('Retry-After'), attempt, now());
      if (delay > maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay);
    }
  };
}
