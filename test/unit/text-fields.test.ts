/**
 * Every text a request can carry — each string of each operation's body, customer body and query,
 * found by walking the schemas of every contract — refuses the characters XML 1.0 cannot hold
 * (U+FFFE, U+FFFF, C0 controls, unpaired surrogates): stored text ends up in e-invoices, and one
 * such character makes a whole document ill-formed. Credentials are not text: they are compared,
 * never stored or shown, so they are left out.
 */
import { describe, expect, it } from 'vitest';
import type * as z from 'zod';
import { allOperations } from '#shared/openapi/contracts';

/** Fields that hold a credential or a one-time code: matched against a hash, never stored as text. */
const CREDENTIALS = new Set(['password', 'current_password', 'new_password', 'refresh_token', 'token', 'code']);

/** Values one of which a string field of the API accepts (its example first). */
const CANDIDATES = [
  'Anna Schmidt',
  'anna@example.com',
  'https://example.com/hooks',
  'A4',
  'a',
  'EUR',
  'DE',
  '2026-01-01',
  '/v1/orders',
  'DE123456789',
  '10115',
  '+49 30 1234567',
];

const XML_FORBIDDEN = ['\uffff', '\ufffe', '\u0001', '\ud800', '\u000b'];

type Def = { type: string; [key: string]: unknown };
const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

/** The schemas of each string a request can hold, by field path (containers walked, leaves kept whole: a pipe with its parts). */
function stringLeaves(schema: z.ZodType, path: string[] = [], seen = new Set<z.ZodType>()): { path: string; schema: z.ZodType }[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Record<string, z.ZodType>).flatMap(([key, field]) => stringLeaves(field, [...path, key], seen));
    case 'array':
      return stringLeaves(def.element as z.ZodType, [...path, '0'], seen);
    case 'record':
      return [
        ...stringLeaves(def.keyType as z.ZodType, [...path, '(key)'], seen),
        ...stringLeaves(def.valueType as z.ZodType, [...path, '(value)'], seen),
      ];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return stringLeaves(def.innerType as z.ZodType, path, seen);
    case 'union':
      return (def.options as z.ZodType[]).flatMap((option) => stringLeaves(option, path, seen));
    case 'pipe':
      // A string transformed or checked further (`z.string().trim().pipe(z.email())`): the whole pipe is the field.
      return startsAsString(schema) ? [{ path: path.join('.'), schema }] : stringLeaves(def.in as z.ZodType, path, seen);
    case 'string':
      return [{ path: path.join('.'), schema }];
    default:
      return [];
  }
}

function startsAsString(schema: z.ZodType): boolean {
  const def = defOf(schema);
  return def.type === 'string' || (def.type === 'pipe' && startsAsString(def.in as z.ZodType));
}

function exampleOf(schema: z.ZodType): string | undefined {
  const example = (schema as unknown as { meta?: () => { example?: unknown } | undefined }).meta?.()?.example;
  return [typeof example === 'string' ? example : undefined, ...CANDIDATES].find(
    (value): value is string => value !== undefined && schema.safeParse(value).success,
  );
}

describe('text fields', () => {
  const fields = allOperations.flatMap((operation) =>
    (['body', 'customerBody', 'query'] as const).flatMap((part) => {
      const schema = operation[part];
      return schema ? stringLeaves(schema).map((leaf) => ({ ...leaf, label: `${operation.route.id} ${part}.${leaf.path}` })) : [];
    }),
  );

  it('are found in the request schemas of every contract', () => {
    expect(fields.length).toBeGreaterThan(150);
    expect(fields.map((field) => field.label)).toEqual(
      expect.arrayContaining([
        'customers.create body.name',
        'account.update body.company.legal_name',
        'orders.create body.items.0.description',
      ]),
    );
  });

  it('refuse every character XML 1.0 forbids, wherever an accepted value holds it', () => {
    const accepted: string[] = [];
    let checked = 0;
    for (const field of fields) {
      if (CREDENTIALS.has(field.path.split('.').pop()!)) continue;
      const valid = exampleOf(field.schema);
      if (valid === undefined) continue; // an enum, a pattern none of the candidates meets: no free text
      checked++;
      for (const bad of XML_FORBIDDEN) {
        const middle = Math.max(1, Math.floor(valid.length / 2));
        const value = valid.slice(0, middle) + bad + valid.slice(middle);
        const parsed = field.schema.safeParse(value);
        // Trimmed away (a vertical tab at the end) is not accepted: nothing of it is kept.
        if (parsed.success && JSON.stringify(parsed.data).includes(JSON.stringify(bad).slice(1, -1)))
          accepted.push(`${field.label}: ${JSON.stringify(value)}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(accepted).toEqual([]);
  });
});
