import { describe, expect, it } from 'vitest';
import { formatOrderNumber } from '#shared/orders/numbering';
import { assertIfMatch, etagOf, parseIfMatch } from '#shared/orders/preconditions';

describe('If-Match and ETag', () => {
  it('shows the version as a weak ETag', () => {
    expect(etagOf(7)).toBe('W/"7"');
  });

  it('accepts the version, the quoted version, the weak ETag, a list of them, and *', () => {
    expect(parseIfMatch(undefined)).toBeUndefined();
    expect(parseIfMatch('3')).toEqual([3]);
    expect(parseIfMatch('"3"')).toEqual([3]);
    expect(parseIfMatch('W/"3"')).toEqual([3]);
    expect(parseIfMatch(' W/"3" , "4",5 ')).toEqual([3, 4, 5]);
    expect(parseIfMatch('*')).toBe('*');
  });

  it.each(['', 'abc', '"3', 'W/3', '0', '-1', '3.5', '*, 3', 'W/"3"x'])('refuses %j with 422 naming If-Match', (header) => {
    expect(() => parseIfMatch(header)).toThrow(
      expect.objectContaining({ code: 'validation_failed', details: [expect.objectContaining({ field: 'If-Match' })] }),
    );
  });

  it('passes a matching version or * and answers 412 otherwise', () => {
    expect(() => assertIfMatch(undefined, 4)).not.toThrow();
    expect(() => assertIfMatch('*', 4)).not.toThrow();
    expect(() => assertIfMatch([3, 4], 4)).not.toThrow();
    expect(() => assertIfMatch([3], 4)).toThrow(expect.objectContaining({ code: 'precondition_failed' }));
  });
});

describe('order numbers', () => {
  it('are ORD-<year>-<6 digits>, growing past six digits rather than wrapping', () => {
    expect(formatOrderNumber(2026, 42)).toBe('ORD-2026-000042');
    expect(formatOrderNumber(2027, 1)).toBe('ORD-2027-000001');
    expect(formatOrderNumber(2026, 1_234_567)).toBe('ORD-2026-1234567');
  });
});
