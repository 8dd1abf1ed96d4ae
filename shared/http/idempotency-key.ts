import { ValidationError } from '#shared/errors';

const keyPattern = /^[\x20-\x7E]{1,255}$/;

/** The Idempotency-Key header, validated; undefined when the request carries none. */
export function idempotencyKeyOf(headers: Record<string, string>): string | undefined {
  const key = headers['idempotency-key'];
  if (key === undefined) return undefined;
  if (!keyPattern.test(key)) {
    throw new ValidationError('Invalid Idempotency-Key', [
      { field: 'Idempotency-Key', message: 'must be 1 to 255 printable ASCII characters' },
    ]);
  }
  return key;
}
