/**
 * Text the API stores must be stored faithfully: DynamoDB keeps strings as UTF-8, so an unpaired
 * UTF-16 surrogate (`"\ud800"` in JSON) has no encoding at all — it breaks key building
 * (`encodeURIComponent` throws) and the SDK's marshalling — and control characters (NUL, ESC,
 * DEL, the C1 range) are invisible in every place the text is shown again. Stored text also ends
 * up in XML (e-invoices), and XML 1.0 has no way to write U+FFFE and U+FFFF (nor C0 controls or
 * surrogates): one such character makes the whole document ill-formed. All of them are refused,
 * with a 422 naming the field, by every text schema (common.ts `requiredText` / `optionalText` and
 * the other string inputs) and by the CSV import.
 *
 * Free text — notes and descriptions — may hold line breaks and tabs (`\n`, `\r`, `\t`); names,
 * codes, addresses, emails, categories, URLs and CSV cells are single lines and hold none.
 */

/** A C0 control character, DEL or a C1 control character; U+FFFE or U+FFFF (not XML 1.0 characters); or an unpaired surrogate. */
const UNSTORABLE = new RegExp(
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  '[\\0-\\x1f\\x7f-\\x9f\\ufffe\\uffff]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]',
);

export const TEXT_MESSAGE = 'must not contain control characters (such as NUL), U+FFFE, U+FFFF or unpaired surrogates';

/** Why `value` cannot be stored as text, or undefined when it can. `multiline`: free text (line breaks and tabs allowed). */
export const textProblem = (value: string, multiline = false): string | undefined =>
  UNSTORABLE.test(multiline ? value.replace(/[\t\n\r]/g, '') : value) ? TEXT_MESSAGE : undefined;

/** A character XML 1.0 cannot hold: C0 controls but tab, line feed and carriage return; U+FFFE, U+FFFF; an unpaired surrogate. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_XML = /[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Whether `value` holds a character XML 1.0 cannot hold (text stored before such characters were refused). */
export const hasNonXmlText = (value: unknown): boolean =>
  typeof value === 'string'
    ? new RegExp(NOT_XML.source).test(value)
    : typeof value === 'object' && value !== null && Object.values(value).some(hasNonXmlText);

/**
 * `value` with every character XML 1.0 cannot hold replaced by U+FFFD, in every string it holds
 * (objects and arrays walked). Input refuses such text; this keeps a document well-formed when it
 * is drawn from text stored before it was refused.
 */
export function withXmlSafeText<T>(value: T): T {
  if (typeof value === 'string') return value.replace(NOT_XML, '\ufffd') as T;
  if (Array.isArray(value)) return value.map(withXmlSafeText) as T;
  if (typeof value === 'object' && value !== null && !(value instanceof Uint8Array))
    return Object.fromEntries(Object.entries(value).map(([key, field]) => [key, withXmlSafeText(field)])) as T;
  return value;
}
