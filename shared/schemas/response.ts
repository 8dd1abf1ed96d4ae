/**
 * Response schemas derived from the stored field lists (fields.ts): the zod object an entity's
 * view matches, for the OpenAPI document and the response tests. Each resource's schema.ts calls
 * `responseSchema(storedX, { id: 'X' })` once (marked pure, so only bundles that use it build it).
 */
import * as z from 'zod';
import { timestamp } from './common';
import type { Codec, Doc, Entity, Field, Shape, ViewOf } from './fields';
import { moneyOutput } from './money';

/** The zod object of an entity's view, one property per shown field. */
export type ResponseSchema<S extends Shape> = z.ZodObject<{ [K in keyof ViewOf<S>]-?: z.ZodType<ViewOf<S>[K]> }>;

// A named object (an OpenAPI component) must be one schema object, however often it is used.
const built = new WeakMap<Codec<unknown>, z.ZodType>();

/** The schema of a codec's view, typed as that view (what a client reads). */
export function codecSchema<V>(codec: Codec<unknown, V>): z.ZodType<V> {
  return viewSchema(codec as Codec<unknown>) as z.ZodType<V>;
}

function viewSchema(codec: Codec<unknown>): z.ZodType {
  switch (codec.kind) {
    case 'string':
      return z.string();
    case 'int':
      return z.number().int();
    case 'number':
      return z.number();
    case 'boolean':
      return z.boolean();
    case 'timestamp':
      return timestamp;
    case 'money':
      return moneyOutput;
    case 'stringMap':
      return z.record(z.string(), z.string());
    case 'enum':
      return z.enum(codec.values as [string, ...string[]]);
    case 'nullable':
      return viewSchema(codec.inner!).nullable();
    case 'list':
      return z.array(viewSchema(codec.inner!));
    case 'object': {
      let schema = built.get(codec);
      if (!schema) built.set(codec, (schema = shapeSchema(codec.shape!, codec.meta ?? {})));
      return schema;
    }
  }
}

const documented = (field: Field): z.ZodType => {
  const schema = viewSchema(field.codec as Codec<unknown>);
  return field.doc.description !== undefined || field.doc.example !== undefined ? schema.meta(field.doc) : schema;
};

function shapeSchema(shape: Shape, meta: { id?: string } & Doc): z.ZodObject {
  const properties = Object.fromEntries(
    Object.entries(shape)
      .filter(([, field]) => field.shown)
      .map(([name, field]) => [name, documented(field)]),
  );
  const object = z.object(properties);
  return meta.id || meta.description ? object.meta(meta) : object;
}

/** The response schema of an entity's view, named `meta.id` in the OpenAPI document. */
export const responseSchema = <S extends Shape>(entity: Entity<S>, meta: { id: string } & Doc): ResponseSchema<S> =>
  shapeSchema(entity.shape, meta) as unknown as ResponseSchema<S>;
