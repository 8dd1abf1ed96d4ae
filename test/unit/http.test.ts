import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { toErrorResult } from '#shared/http/error-mapping';
import { DomainError, NotFoundError, RateLimitedError } from '#shared/errors';
import { cursorPagination, pagination } from '#shared/http/envelope';
import { paginationQuery } from '#shared/schemas/pagination';
import { issuesToDetails } from '#shared/http/validation';
import { CustomerCreateSchema, CustomerListQuerySchema } from '#shared/customers/schema';

describe('pagination', () => {
  const query = z.strictObject({ ...paginationQuery });

  it('defaults to page 1 and 25 per page', () => {
    expect(query.parse({})).toEqual({ page: 1, per_page: 25 });
  });

  it('refuses out-of-range and non-integer values instead of clamping', () => {
    for (const input of [{ per_page: '101' }, { per_page: '0' }, { page: '0' }, { page: '1.5' }, { page: '-1' }, { page: 'x' }]) {
      expect(query.safeParse(input).success, JSON.stringify(input)).toBe(false);
    }
  });

  it('computes total_pages and has_more from an exact total', () => {
    expect(pagination(1, 25, 0)).toEqual({ page: 1, per_page: 25, total: 0, total_pages: 0, total_capped: false, has_more: false });
    expect(pagination(1, 25, 26)).toMatchObject({ total_pages: 2, has_more: true });
    expect(pagination(2, 25, 26)).toEqual({ page: 2, per_page: 25, total: 26, total_pages: 2, total_capped: false, has_more: false });
    expect(pagination(1, 100, 100).total_pages).toBe(1);
  });

  it('marks a capped total, takes has_more from the read, and adds the cursor of lists that take one', () => {
    expect(pagination(40, 25, 1000, { capped: true })).toMatchObject({ total: 1000, total_capped: true, has_more: true });
    expect(pagination(1, 2, 3, { hasMore: false, nextCursor: null })).toEqual({
      page: 1,
      per_page: 2,
      total: 3,
      total_pages: 2,
      total_capped: false,
      has_more: false,
      next_cursor: null,
    });
    expect(pagination(1, 2, 3, { hasMore: true, nextCursor: '7' })).toMatchObject({ has_more: true, next_cursor: '7' });
  });

  it('leaves the total out of cursor lists (audit logs, events)', () => {
    expect(cursorPagination(25, 'abc')).toEqual({ page: 1, per_page: 25, has_more: true, next_cursor: 'abc' });
    expect(cursorPagination(25, undefined)).toEqual({ page: 1, per_page: 25, has_more: false, next_cursor: null });
  });

  it('refuses unknown query parameters on customer lists', () => {
    expect(CustomerListQuerySchema.safeParse({ status: 'x' }).success).toBe(false);
  });
});

describe('validation details', () => {
  it('names each field, nested paths dotted, unknown fields separately', () => {
    const result = CustomerCreateSchema.safeParse({ email: 'bad', extra: 1 });
    expect(result.success).toBe(false);
    const details = issuesToDetails(result.error!.issues);
    expect(details).toContainEqual({ field: 'name', message: 'Required' });
    expect(details).toContainEqual({ field: 'email', message: 'must be a valid email address' });
    expect(details).toContainEqual({ field: 'extra', message: 'Unknown field' });
    const nested = z.object({ items: z.array(z.object({ quantity: z.number() })) }).safeParse({ items: [{ quantity: 'x' }] });
    expect(issuesToDetails(nested.error!.issues)[0]!.field).toBe('items.0.quantity');
  });
});

describe('error mapping', () => {
  it('maps domain errors to their status and body', () => {
    const result = toErrorResult(new NotFoundError('customer', 7), 'req-1');
    expect(result.statusCode).toBe(404);
    expect(JSON.parse(result.body)).toEqual({
      success: false,
      error: { code: 'not_found', message: 'No customer with id 7', request_id: 'req-1' },
    });
    expect(result.headers?.['X-Request-Id']).toBe('req-1');
  });

  it('never lets a stack trace or internal message out', () => {
    const error = new Error('ECONNREFUSED 10.0.0.1 secret-table-name');
    const result = toErrorResult(error, 'req-2');
    expect(result.statusCode).toBe(500);
    expect(result.body).not.toContain('ECONNREFUSED');
    expect(result.body).not.toContain('at ');
    expect(JSON.parse(result.body).error.code).toBe('internal_error');
  });

  it('answers the JSON body errors with 400 invalid_json and 415', () => {
    expect(toErrorResult(new DomainError('invalid_json', 'x'), 'r').statusCode).toBe(400);
    expect(toErrorResult(new DomainError('unsupported_media_type', 'x'), 'r').statusCode).toBe(415);
    expect(toErrorResult(new DomainError('bad_request', 'x'), 'r').statusCode).toBe(400);
  });

  it('keeps details and headers of API errors', () => {
    const result = toErrorResult(new RateLimitedError('slow down', 3), 'r');
    expect(result.statusCode).toBe(429);
    expect(result.headers?.['Retry-After']).toBe('3');
  });
});

describe('type errors', () => {
  it('says Required only for missing fields and names the expected type otherwise', () => {
    const result = z.strictObject({ name: z.string(), count: z.number(), tags: z.array(z.string()) }).safeParse({ count: 'x', tags: 'y' });
    expect(issuesToDetails(result.error!.issues)).toEqual([
      { field: 'name', message: 'Required' },
      { field: 'count', message: 'must be a number (received string)' },
      { field: 'tags', message: 'must be an array (received string)' },
    ]);
  });
});
