/** Turning API errors into what the panel shows: field messages next to fields, the rest as one line. */
import type { ErrorDetail } from '../api/types';

export interface ErrorLike {
  status?: number;
  code?: string;
  message: string;
  details?: ErrorDetail[];
  requestId?: string;
}

/** Field → message (several messages for one field are joined). `body` and unknown fields stay out. */
export function fieldErrors(details: readonly ErrorDetail[] = [], fields: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const { field, message } of details) {
    const name = field.split('.')[0]!;
    if (!fields.includes(name)) continue;
    out[name] = out[name] ? `${out[name]}; ${message}` : message;
  }
  return out;
}

/** The details that did not land on a field of the form, as text. */
export function otherErrors(details: readonly ErrorDetail[] = [], fields: readonly string[]): string[] {
  return details
    .filter(({ field }) => !fields.includes(field.split('.')[0]!))
    .map(({ field, message }) => (field ? `${field}: ${message}` : message));
}

/** One sentence for an error banner, with the request id support needs. */
export function describeError(error: ErrorLike): string {
  const reference = error.requestId ? ` (request ${error.requestId})` : '';
  return `${error.message}${reference}`;
}

/**
 * A server message shown next to its field as a sentence: `must use https` under "URL" reads
 * "The URL must use https."; a message that already stands alone is only capitalised.
 */
export function fieldSentence(subject: string, message: string): string {
  const text = message.trim();
  if (!text) return text;
  const phrase = /^(must|is|are|has|have|should|cannot|can't)\b/.test(text) ? `${subject} ${text}` : text;
  const capital = phrase[0]!.toUpperCase() + phrase.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}
