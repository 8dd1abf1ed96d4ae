/**
 * The shapes the panel reads from the public API (see shared/webhooks/schema.ts and
 * shared/accounts/contract.ts, and the OpenAPI document). The panel is an API client like any
 * integrator's, so it keeps its own copy of the fields it uses rather than importing server code.
 */

export type Mode = 'test' | 'live';

export interface Account {
  id: string;
  name: string;
  plan: string;
  currency: string;
  tax_rate: number;
  mode: Mode;
  limits: { per_minute: number; per_hour: number | null };
  key: { id: string; prefix: string; kind: 'secret' | 'publishable'; scopes: string[] };
}

export interface Pagination {
  page: number;
  per_page: number;
  /** A lower bound when `total_capped` (a history counted up to 1,000 entries). */
  total: number;
  total_pages: number;
  total_capped?: boolean;
  has_more?: boolean;
  next_cursor?: string | null;
}

export interface Page<T> {
  items: T[];
  pagination: Pagination;
}

/** A registration. `secret` is complete only in the answers to create and rotate-secret. */
export interface Webhook {
  id: number;
  url: string;
  /** Catalogue kinds, or `["*"]` for every kind. */
  events: string[];
  active: boolean;
  description: string | null;
  secret: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookInput {
  url: string;
  events: string[];
  active: boolean;
  description: string | null;
}

export type DeliveryStatus = 'pending' | 'succeeded' | 'failed' | 'skipped';

export interface Delivery {
  /** `wh_…`: one event to one registration; the same across retries and resends. */
  id: string;
  webhook_id: number;
  event_id: string;
  event: string;
  test: boolean;
  status: DeliveryStatus;
  attempt_count: number;
  last_attempt_at: string | null;
  next_attempt_at: string | null;
  last_status_code: number | null;
  last_error: string | null;
  created_at: string;
  updated_at: string;
}

export interface DeliveryAttempt {
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  /** The first 1024 characters of the receiver's answer. */
  response_body: string | null;
}

export interface DeliveryDetail extends Delivery {
  payload: Record<string, unknown> | null;
  attempts: DeliveryAttempt[];
}

export interface DeliveryFilters {
  status?: DeliveryStatus;
  event?: string;
  page: number;
}

export interface ErrorDetail {
  field: string;
  message: string;
}
