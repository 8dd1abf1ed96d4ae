/**
 * The size of an item as DynamoDB counts it against its 400 KB item limit (the rules of "Item
 * sizes and formats" in the DynamoDB developer guide): attribute names and strings in UTF-8 bytes,
 * a number ≈ 1 byte per two significant digits + 1 (at most 21), a boolean or null 1 byte, a list
 * or map 3 bytes plus 1 byte per element (and a map its keys). The budgets of items that
 * aggregate input (a product's options, a legacy product's option lists) are checked with it
 * before anything is written, so a request too big to store is a 422, never a failed write.
 */

/** DynamoDB's own item limit. */
export const DYNAMODB_ITEM_LIMIT = 400 * 1024;

const utf8 = (text: string): number => Buffer.byteLength(text, 'utf8');

function numberBytes(value: number | bigint): number {
  const digits = String(value).replace(/^-/, '').replace(/e.*$/i, '').replace('.', '').replace(/^0+/, '').replace(/0+$/, '');
  return Math.min(21, Math.ceil(Math.max(digits.length, 1) / 2) + 1);
}

/** The size of one attribute value (undefined counts nothing: the marshaller leaves it out). */
export function valueBytes(value: unknown): number {
  if (value === undefined) return 0;
  if (value === null || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number' || typeof value === 'bigint') return numberBytes(value);
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...(value as Set<unknown>)].reduce<number>((sum, element) => sum + valueBytes(element), 0);
  if (Array.isArray(value)) return value.reduce<number>((sum, element) => sum + 1 + valueBytes(element), 3);
  if (typeof value === 'object') {
    let sum = 3;
    for (const [name, inner] of Object.entries(value)) {
      if (inner !== undefined) sum += 1 + utf8(name) + valueBytes(inner);
    }
    return sum;
  }
  return 0;
}

/** The size of an item: each attribute's name and value. */
export function itemBytes(item: Record<string, unknown>): number {
  let sum = 0;
  for (const [name, value] of Object.entries(item)) if (value !== undefined) sum += utf8(name) + valueBytes(value);
  return sum;
}

const kib = (bytes: number): string => (bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0);

/**
 * The problem of a record over `maxBytes`, measured both as stored (`stored`: its attributes) and
 * as JSON (`view`: what responses, idempotency records and events keep) — whichever is larger —
 * named by its largest field (`fieldOf` maps a view field to the request field that fills it).
 * Undefined when it fits.
 */
export function sizeProblem(
  what: string,
  stored: Record<string, unknown>,
  view: Record<string, unknown>,
  maxBytes: number,
  fieldOf: (name: string) => string = (name) => name,
): { field: string; message: string } | undefined {
  const size = Math.max(itemBytes(stored), Buffer.byteLength(JSON.stringify(view), 'utf8'));
  if (size <= maxBytes) return undefined;
  let largest = '(body)';
  let largestBytes = -1;
  for (const [name, value] of Object.entries(view)) {
    const bytes = Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');
    if (bytes > largestBytes) [largest, largestBytes] = [name, bytes];
  }
  return {
    field: fieldOf(largest),
    message: `makes the ${what} ${kib(size)} KB (${kib(largestBytes)} KB of it here); a ${what} may take at most ${kib(maxBytes)} KB`,
  };
}
