/**
 * Text the API stores must be stored faithfully: DynamoDB keeps strings as UTF-8, so an unpaired
 * UTF-16 surrogate (`"\ud800"` in JSON) has no encoding at all — it breaks key building
 * (`encodeURIComponent` throws) and the SDK's marshalling — and control characters (NUL, ESC,
 * DEL, the C1 range) are invisible in every place the text is shown again. Both are refused, with
 * a 422 naming the field, by every text schema (common.ts `requiredText` / `optionalText` and the
 * other string inputs) and by the CSV import.
 *
 * Free text — notes and descriptions — may hold line breaks and tabs (`\n`, `\r`, `\t`); names,
 * codes, addresses, emails, categories, URLs and CSV cells are single lines and hold none.
 */

/** A C0 control character, DEL or a C1 control character; or an unpaired surrogate. */
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const UNSTORABLE = new RegExp('[\\0-\\x1f\\x7f-\\x9f]|[\\ud800-\\udbff](?![\\udc00-\\udfff])|(?<![\\ud800-\\udbff])[\\udc00-\\udfff]');

export const TEXT_MESSAGE = 'must not contain control characters (such as NUL) or unpaired surrogates';

/** Why `value` cannot be stored as text, or undefined when it can. `multiline`: free text (line breaks and tabs allowed). */
export const textProblem = (value: string, multiline = false): string | undefined =>
  UNSTORABLE.test(multiline ? value.replace(/[\t\n\r]/g, '') : value) ? TEXT_MESSAGE : undefined;
