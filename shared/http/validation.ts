import type { z } from 'zod';
import { MAX_ERROR_DETAILS, moreDetails, ValidationError, type ErrorDetail } from '#shared/errors';

/**
 * Turns zod issues into `details: [{ field, message }]` with dotted field paths (`items.0.quantity`),
 * at most MAX_ERROR_DETAILS of them (a body of a million unknown keys builds fifty), and counts
 * them all (`total`).
 */
function collect(issues: readonly z.core.$ZodIssue[], prefix?: string): { details: ErrorDetail[]; total: number } {
  const details: ErrorDetail[] = [];
  let total = 0;
  const add = (field: string, message: string) => {
    if (total++ < MAX_ERROR_DETAILS) details.push({ field, message });
  };
  for (const issue of issues) {
    const base = [prefix, ...issue.path.map(String)].filter(Boolean).join('.');
    if (issue.code === 'unrecognized_keys') {
      // A schema may say why its keys are refused (a customer's order line: "is set by the shop"); zod's own text names the keys.
      const why = issue.message.startsWith('Unrecognized key') ? 'Unknown field' : issue.message;
      for (const key of issue.keys) add(base ? `${base}.${key}` : key, why);
    } else if (issue.code === 'invalid_type') {
      // zod v4 issues do not carry the input; its default message says what was received.
      const missing = / received undefined$/.test(issue.message);
      const generic = issue.message.startsWith('Invalid input: expected');
      const received = / received (\w+)$/.exec(issue.message)?.[1];
      add(
        base || '(body)',
        missing
          ? 'Required'
          : generic
            ? `must be ${issue.expected === 'array' ? 'an array' : `a ${issue.expected}`}${received ? ` (received ${received})` : ''}`
            : issue.message,
      );
    } else {
      add(base || '(body)', issue.message);
    }
  }
  return { details, total };
}

export const issuesToDetails = (issues: readonly z.core.$ZodIssue[], prefix?: string): ErrorDetail[] => collect(issues, prefix).details;

/** Parses `input` or throws a 422 naming the offending fields (the first MAX_ERROR_DETAILS; the message counts the rest). */
export function parseOrThrow<S extends z.ZodType>(schema: S, input: unknown, what: string): z.output<S> {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  const { details, total } = collect(result.error.issues);
  throw new ValidationError(`The ${what} is invalid${total > details.length ? moreDetails(total, details.length) : ''}`, details);
}
