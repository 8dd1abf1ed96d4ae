/**
 * A small typed client of the public /v1 API: everything the panel does goes through here, with
 * the key the user signed in with. Errors become `ApiError` with the API's code, message, field
 * details and request id; a 401 also tells the session to end.
 */
import type { Account, Delivery, DeliveryDetail, DeliveryFilters, ErrorDetail, Page, Pagination, Webhook, WebhookInput } from './types';

export class ApiError extends Error {
  constructor(
    /** HTTP status; 0 when the API could not be reached at all. */
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details: ErrorDetail[] = [],
    readonly requestId?: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ClientOptions {
  /** The API's origin (and stage path on AWS), e.g. `https://abc.execute-api.eu-central-1.amazonaws.com/prod`. */
  baseUrl: string;
  key: string;
  /** Called on every 401: the key was revoked or never valid. */
  onUnauthorized?: (error: ApiError) => void;
  fetch?: typeof fetch;
}

type Query = Record<string, string | number | undefined>;

interface ErrorBody {
  success?: false;
  error?: { code?: string; message?: string; details?: ErrorDetail[]; request_id?: string };
}

export class ApiClient {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? ((input, init) => fetch(input, init));
  }

  /** The raw JSON body of a successful call; throws `ApiError` otherwise. */
  async call<T>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const url = this.baseUrl + path + queryString(options.query);
    const headers: Record<string, string> = { Authorization: `Bearer ${this.options.key}`, Accept: 'application/json' };
    if (options.body !== undefined) headers['Content-Type'] = 'application/json';
    let response: Response;
    try {
      response = await this.fetchImpl(url, {
        method,
        headers,
        body: options.body === undefined ? undefined : JSON.stringify(options.body),
        // The key travels in the header only; no cookies, no referrer to third parties.
        credentials: 'omit',
        cache: 'no-store',
      });
    } catch {
      throw new ApiError(
        0,
        'network_error',
        `Could not reach the API at ${this.baseUrl || 'this address'}. Check your connection and try again.`,
      );
    }
    const text = await response.text();
    let body: unknown;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      body = undefined;
    }
    if (!response.ok) {
      const error = toApiError(response, body as ErrorBody | undefined);
      if (response.status === 401) this.options.onUnauthorized?.(error);
      throw error;
    }
    return body as T;
  }

  private async data<T>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    return (await this.call<{ data: T }>(method, path, options)).data;
  }

  private async page<T>(path: string, query: Query): Promise<Page<T>> {
    const body = await this.call<{ data: T[]; pagination: Pagination }>('GET', path, { query });
    return { items: body.data, pagination: body.pagination };
  }

  account = (): Promise<Account> => this.data('GET', '/v1/account');

  listWebhooks = (page = 1, perPage = 100): Promise<Page<Webhook>> => this.page('/v1/webhooks', { page, per_page: perPage });
  getWebhook = (id: number): Promise<Webhook> => this.data('GET', `/v1/webhooks/${id}`);
  createWebhook = (input: WebhookInput): Promise<Webhook> => this.data('POST', '/v1/webhooks', { body: input });
  updateWebhook = (id: number, changes: Partial<WebhookInput>): Promise<Webhook> =>
    this.data('PUT', `/v1/webhooks/${id}`, { body: changes });
  deleteWebhook = (id: number): Promise<{ id: number; deleted: true }> => this.data('DELETE', `/v1/webhooks/${id}`);
  rotateSecret = (id: number): Promise<Webhook> => this.data('POST', `/v1/webhooks/${id}/rotate-secret`);

  /** Sends a sample event through the real pipeline; answers `{ success, message }` (no `data`). */
  sendTest = (id: number, event?: string): Promise<{ success: true; message: string }> =>
    this.call('POST', `/v1/webhooks/${id}/test`, { body: event ? { event } : {} });

  listDeliveries = (id: number, filters: DeliveryFilters, perPage = 20): Promise<Page<Delivery>> =>
    this.page(`/v1/webhooks/${id}/deliveries`, { page: filters.page, per_page: perPage, status: filters.status, event: filters.event });
  getDelivery = (id: number, deliveryId: string): Promise<DeliveryDetail> =>
    this.data('GET', `/v1/webhooks/${id}/deliveries/${encodeURIComponent(deliveryId)}`);
  redeliver = (id: number, deliveryId: string): Promise<Delivery> =>
    this.data('POST', `/v1/webhooks/${id}/deliveries/${encodeURIComponent(deliveryId)}/redeliver`);
}

export function queryString(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') params.set(name, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

function toApiError(response: Response, body: ErrorBody | undefined): ApiError {
  const error = body?.error;
  const requestId = error?.request_id ?? response.headers.get('X-Request-Id') ?? undefined;
  const message = error?.message ?? `The API answered ${response.status} ${response.statusText}`.trim();
  return new ApiError(response.status, error?.code ?? `http_${response.status}`, message, error?.details ?? [], requestId);
}
