import type { z } from 'zod';
import { ValidationError, type ErrorDetail } from '#shared/errors';

/** Turns zod issues into `details: [{ field, message }]` with dotted field paths (`items.0.quantity`). */
export function issuesToDetails(issues: readonly z.core.$ZodIssue[], prefix?: string): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const base = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) {
        details.push({ field: base ? `${base}.${key}` : key, message: 'Unknown field' });
      }
    } else if (issue.code === 'invalid_type') {
      // zod v4 issues do not carry the input; its default message says what was received.
      const missing = / received undefined$/.test(issue.message);
      const generic = issue.message.startsWith('Invalid input: expected');
      const received = / received (\w+)$/.exec(issue.message)?.[1];
      details.push({
        field: base || '(body)',
        message: missing
          ? 'Required'
          : generic
            ? `must be ${issue.expected === 'array' ? 'an array' : `a ${issue.expected}`}${received ? ` (received ${received})` : ''}`
            : issue.message,
      });
    } else {
      details.push({ field: base || '(body)', message: issue.message });
    }
  }
  return details;
}

/** Parses `input` or throws a 422 naming every offending field. */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new ValidationError(`The ${what} is invalid`, issuesToDetails(result.error.issues));
}
