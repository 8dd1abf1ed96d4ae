/**
 * Stored entities, each written once as a field list (the idea of ElectroDB's models): from the
 * list follow the record type the domain works with, the reading of a stored item (`read`), the
 * attributes a put or an update writes (`attributes`), the public view (`view`) and — in
 * response.ts — the response schema of the API. Keys are not fields: shared/db/keys.ts builds them.
 *
 * A record holds what is stored, in the stored names (snake_case), money in integer minor units.
 * The view is the record with money as 2-decimal numbers and internal fields left out, in the
 * order the fields are listed (the order responses and webhook payloads show).
 *
 * Reading is lenient (an item written before a field existed reads as its default), never
 * validating: the item was valid when it was written.
 */
import { fromMinor } from '#shared/money';

type Item = Record<string, unknown>;
export type Doc = { description?: string; example?: unknown };

/**
 * How one value is read and shown. `T`: as stored and in the record; `V`: in the view. `kind`
 * (with `values`, `inner` or `shape`) says what it is, for the response schema (response.ts,
 * kept apart so that code which only reads and writes items does not bundle zod's builders).
 */
export interface Codec<T, V = T> {
  kind: 'string' | 'int' | 'number' | 'boolean' | 'timestamp' | 'money' | 'stringMap' | 'enum' | 'nullable' | 'list' | 'object';
  decode(value: unknown): T;
  view(value: T): V;
  values?: readonly string[];
  inner?: Codec<unknown>;
  shape?: Shape;
  meta?: { id?: string } & Doc;
}

const plain = <T>(kind: Codec<T>['kind'], decode: (value: unknown) => T): Codec<T> => ({ kind, decode, view: (value) => value });

const isMissing = (value: unknown): value is null | undefined => value === undefined || value === null;

export const codecs = {
  string: plain('string', (value) => String(value ?? '')),
  int: plain('int', (value) => Number(value ?? 0)),
  number: plain('number', (value) => Number(value ?? 0)),
  boolean: plain('boolean', (value) => value === true),
  /** ISO 8601 UTC time. */
  timestamp: plain('timestamp', (value) => String(value ?? '')),
  /** Integer minor units stored, a 2-decimal number shown. */
  money: { kind: 'money', decode: (value: unknown) => Number(value ?? 0), view: fromMinor } satisfies Codec<number>,
  stringMap: plain('stringMap', (value) =>
    Object.fromEntries(Object.entries((value as Item | undefined) ?? {}).map(([key, inner]) => [key, String(inner)])),
  ),
  /** `fallback` when the item has no value (a field added after items were written). */
  withDefault: <T, V>(inner: Codec<T, V>, fallback: T): Codec<T, V> => ({
    ...inner,
    decode: (value) => (isMissing(value) ? fallback : inner.decode(value)),
  }),
  enumOf: <const E extends readonly [string, ...string[]]>(values: E): Codec<E[number]> => ({
    ...plain('enum', (value) => value as E[number]),
    values,
  }),
  nullable: <T, V>(inner: Codec<T, V>): Codec<T | null, V | null> => ({
    kind: 'nullable',
    decode: (value) => (isMissing(value) ? null : inner.decode(value)),
    view: (value) => (value === null ? null : inner.view(value)),
    inner: inner as Codec<unknown>,
  }),
  list: <T, V>(inner: Codec<T, V>): Codec<T[], V[]> => ({
    kind: 'list',
    decode: (value) => (Array.isArray(value) ? value.map((element) => inner.decode(element)) : []),
    view: (value) => value.map((element) => inner.view(element)),
    inner: inner as Codec<unknown>,
  }),
  /** A nested object (a map in DynamoDB); `id` names its OpenAPI component. */
  object: <S extends Record<string, Field>>(shape: S, meta: { id?: string } & Doc = {}): Codec<RecordOf<S>, ViewOf<S>> => ({
    kind: 'object',
    decode: (value) => readShape(shape, (value as Item | undefined) ?? {}),
    view: (value) => viewShape(shape, value),
    shape,
    meta,
  }),
};

/**
 * One attribute of an entity, with who writes it and whether responses show it:
 * - by default it is written by puts and updates and shown;
 * - `fixed()`: written when the item is created, never by an update (ids, creation time, the
 *   version, which updates raise with an expression of their own);
 * - `internal()`: never shown (bookkeeping such as the stock an order holds);
 * - `external()`: bookkeeping set only by update expressions of its own (a mark another writer sets
 *   without the entity's version, such as an order's start of production), never written by a put
 *   or an update of the entity, so an update from an earlier read cannot undo it; not shown;
 * - `counter()`: moved only by atomic ADDs in other writers' transactions, never written by a
 *   put or an update of the entity (so an update never overwrites a concurrent increment), not shown;
 * - `derived()`: shown but never stored: the domain sets it before the view (an address's
 *   `is_default` follows from its customer's default pointers).
 */
export interface Field<T = unknown, V = unknown, Shown extends boolean = boolean> {
  codec: Codec<T, V>;
  shown: Shown;
  writes: 'put-and-update' | 'put' | 'none';
  doc: Doc;
  /** Stored as one attribute per sub-field, `<name>_<sub>` (so condition expressions can name them). */
  flattened: boolean;
  /** The attribute's name in the item when it differs from the field's (an older name kept for stored data). */
  attribute?: string;
}

interface FieldBuilder<T, V, Shown extends boolean> extends Field<T, V, Shown> {
  fixed(): FieldBuilder<T, V, Shown>;
  internal(): FieldBuilder<T, V, false>;
  counter(): FieldBuilder<T, V, false>;
  external(): FieldBuilder<T, V, false>;
  derived(): FieldBuilder<T, V, Shown>;
  flat(): FieldBuilder<T, V, Shown>;
  storedAs(attribute: string): FieldBuilder<T, V, Shown>;
  describe(description: string, example?: unknown): FieldBuilder<T, V, Shown>;
}

function build<T, V, Shown extends boolean>(field: Field<T, V, Shown>): FieldBuilder<T, V, Shown> {
  return {
    ...field,
    fixed: () => build({ ...field, writes: 'put' }),
    internal: () => build({ ...field, shown: false }),
    counter: () => build({ ...field, shown: false, writes: 'none' }),
    external: () => build({ ...field, shown: false, writes: 'none' }),
    derived: () => build({ ...field, writes: 'none' }),
    flat: () => build({ ...field, flattened: true }),
    storedAs: (attribute) => build({ ...field, attribute }),
    describe: (description, example) => build({ ...field, doc: { description, ...(example === undefined ? {} : { example }) } }),
  };
}

/** A field of `codec`, written by puts and updates and shown unless told otherwise (see Field). */
export const field = <T, V>(codec: Codec<T, V>): FieldBuilder<T, V, true> =>
  build({ codec, shown: true, writes: 'put-and-update', doc: {}, flattened: false });

export type Shape = Record<string, Field>;
export type RecordOf<S extends Shape> = { [K in keyof S]: S[K] extends Field<infer T> ? T : never };
type ShownKeys<S extends Shape> = { [K in keyof S]: S[K] extends Field<unknown, unknown, true> ? K : never }[keyof S];
export type ViewOf<S extends Shape> = { [K in ShownKeys<S>]: S[K] extends Field<unknown, infer V> ? V : never };

function readShape<S extends Shape>(shape: S, item: Item): RecordOf<S> {
  const record: Item = {};
  for (const name in shape) {
    const field = shape[name]!;
    record[name] = field.codec.decode(field.flattened ? flattenedValue(name, item) : item[field.attribute ?? name]);
  }
  return record as RecordOf<S>;
}

function flattenedValue(name: string, item: Item): Item {
  const prefix = `${name}_`;
  const value: Item = {};
  for (const key in item) if (key.startsWith(prefix)) value[key.slice(prefix.length)] = item[key];
  return value;
}

function viewShape<S extends Shape>(shape: S, record: RecordOf<S>): ViewOf<S> {
  const view: Item = {};
  for (const name in shape) {
    const field = shape[name]!;
    if (field.shown) view[name] = field.codec.view((record as Item)[name] as never);
  }
  return view as ViewOf<S>;
}

export interface Entity<S extends Shape> {
  shape: S;
  /** The record of a stored item (its keys and index attributes are ignored). */
  read(item: Item): RecordOf<S>;
  /**
   * The attributes to store: for a `put` every field with a value but counters and derived ones,
   * for an `update` the fields an update may change (not fixed ones; null means REMOVE).
   * Flattened fields become their sub-attributes. Keys and index attributes are the repository's.
   */
  attributes(record: RecordOf<S>, purpose: 'put' | 'update'): Item;
  /** The public view: money as 2-decimal numbers, internal fields and counters left out. */
  view(record: RecordOf<S>): ViewOf<S>;
}

export function entity<S extends Shape>(shape: S): Entity<S> {
  return {
    shape,
    read: (item) => readShape(shape, item),
    attributes(record, purpose) {
      const attributes: Item = {};
      for (const name in shape) {
        const field = shape[name]!;
        if (field.writes === 'none' || (purpose === 'update' && field.writes === 'put')) continue;
        const value = (record as Item)[name];
        // A new item leaves empty fields out (reads give null): conditions such as
        // attribute_not_exists(default_billing_address_id) mean "none yet", as after an update's REMOVE.
        if (purpose === 'put' && (value === null || value === undefined)) continue;
        if (field.flattened) for (const [sub, inner] of Object.entries(value as Item)) attributes[`${name}_${sub}`] = inner;
        else attributes[field.attribute ?? name] = value;
      }
      return attributes;
    },
    view: (record) => viewShape(shape, record),
  };
}
