/** Walking a cursor list to its end over HTTP, with every page's DynamoDB work held to a bound. */
import { expect } from 'vitest';
import { call, dynamoDbWork, type ApiResponse } from './http';

/** What one page may cost: DynamoDB calls and items read (the local gateway's counters). */
export interface PageBound {
  calls: number;
  items: number;
}

/**
 * Requests `path` (with its `per_page` and filters), then the page after each page's
 * `next_cursor` (`starting_after`), until the last: answers the ids in the order served. Every
 * page must answer 200 within `bound`, say `has_more` exactly when it names a `next_cursor`, and
 * that cursor must be its last id.
 */
export async function walkByCursor(path: string, key: string, bound: PageBound, maxRequests = 100): Promise<number[]> {
  const ids: number[] = [];
  const separator = path.includes('?') ? '&' : '?';
  let cursor: string | null = null;
  for (let request = 0; request < maxRequests; request++) {
    const response: ApiResponse = await call('GET', `${path}${cursor ? `${separator}starting_after=${cursor}` : ''}`, { key });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    const work = dynamoDbWork(response);
    expect(work.calls, `${path}: ${work.commands.join(',')}`).toBeLessThanOrEqual(bound.calls);
    expect(work.items, `${path}: ${work.commands.join(',')}`).toBeLessThanOrEqual(bound.items);
    // Any list: the walk reads only what every list has, an id per entry and the pagination.
    ids.push(...(response.body.data as { id: number }[]).map((entry) => entry.id));
    cursor = response.body.pagination.next_cursor ?? null;
    expect(response.body.pagination.has_more).toBe(cursor !== null);
    if (cursor !== null) expect(cursor).toBe(String(ids.at(-1)));
    else return ids;
  }
  throw new Error(`${path}: no last page after ${maxRequests} requests`);
}
