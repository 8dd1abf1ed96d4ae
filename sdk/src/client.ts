/**
 * The client factory: one configured client for the generated operations (./generated), with the
 * base URL, the API key, retries of refused requests (./retry.ts), an `Idempotency-Key` helper and
 * auto-pagination of list operations.
 *
 *   const shop = createPrintShop({ baseUrl: 'https://api.example.com', apiKey: process.env.PRINT_SHOP_KEY! });
 *   const { data } = await ordersCreate({ client: shop.client, body, headers: shop.idempotencyKey() });
 *   const pending = shop.paginate((query) => ordersList({ client: shop.client, query, throwOnError: true }), { status: 'pending' });
 *   for await (const order of pending) …
 */
import { createClient, createConfig, type Client } from './generated/client';
import type { Pagination } from './generated/types.gen';
import { retryingFetch, type RetryOptions } from './retry';

export interface PrintShopOptions extends RetryOptions {
  /** The API's origin, e.g. `https://api.example.com` (the operations' paths start with `/v1`). */
  baseUrl: string;
  /** A secret key (`sk_test_…`, `sk_live_…`) or a publishable key; sent as `Authorization: Bearer`. */
  apiKey: string;
  /** The fetch to run on (default: the global one). */
  fetch?: typeof fetch;
}

/** A list operation's answer: the page's entries and where the list goes on. */
export interface ListPage<TItem> {
  data: TItem[];
  pagination: Pagination;
}

/** What every list takes to page: a page number and, on lists that page by cursor, `starting_after`. */
export interface ListQuery {
  page?: number;
  starting_after?: string;
}

/**
 * One page of a list: calls a generated list operation with `query` (the caller's query, with the
 * page or cursor to read) so that an error answer throws, e.g.
 * `(query) => ordersList({ client: shop.client, query, throwOnError: true })`.
 */
export type ListPageReader<TQuery, TItem> = (query: TQuery & ListQuery) => Promise<{ data: ListPage<TItem> }>;

export interface PrintShop {
  /** Pass it to any generated operation: `ordersGet({ client: shop.client, path: { id } })`. */
  client: Client;
  /**
   * The `Idempotency-Key` header for a POST: a new random key, or `key` (reuse the same key when
   * retrying the same request yourself; the API then answers the first answer again).
   */
  idempotencyKey(key?: string): { 'Idempotency-Key': string };
  /**
   * Every entry of a list, page after page: by `pagination.next_cursor` (passed back as
   * `starting_after`) on lists that page by cursor, else by page number while `has_more`.
   * An error answer throws.
   */
  paginate<const TQuery extends object, TItem>(read: ListPageReader<TQuery, TItem>, query?: TQuery): AsyncGenerator<TItem>;
}

export function createPrintShop(options: PrintShopOptions): PrintShop {
  const client = createClient(
    createConfig({
      baseUrl: options.baseUrl.replace(/\/+$/, ''),
      auth: () => options.apiKey,
      fetch: retryingFetch(options.fetch, options),
    }),
  );
  return {
    client,
    idempotencyKey: (key = globalThis.crypto.randomUUID()) => ({ 'Idempotency-Key': key }),
    paginate,
  };
}

/** See `PrintShop.paginate`. */
export async function* paginate<const TQuery extends object, TItem>(
  read: ListPageReader<TQuery, TItem>,
  query: TQuery = {} as TQuery,
): AsyncGenerator<TItem> {
  let next: TQuery & ListQuery = query;
  for (;;) {
    const { data: page } = await read(next);
    yield* page.data;
    const { next_cursor: cursor, has_more: hasMore, page: number } = page.pagination;
    if (cursor) next = { ...query, page: undefined, starting_after: cursor };
    else if (hasMore && cursor === undefined) next = { ...query, starting_after: undefined, page: number + 1 };
    else return;
  }
}
