import { describe, expect, it } from 'vitest';
import { codecs as c, entity, field } from '#shared/schemas/fields';
import { responseSchema } from '#shared/schemas/response';

const widget = entity({
  id: field(c.int).fixed(),
  name: field(c.string).describe('What it is called', 'Flyer'),
  price: field(c.money),
  size: field(c.object({ width: field(c.int), height: field(c.int) }, { id: 'WidgetSize' })).flat(),
  kind: field(c.enumOf(['a', 'b'])).storedAs('type'),
  note: field(c.nullable(c.string)),
  tags: field(c.list(c.string)),
  is_default: field(c.boolean).derived(),
  version: field(c.withDefault(c.int, 1)).fixed().internal(),
  refs: field(c.int).counter(),
  marked_at: field(c.nullable(c.timestamp)).external(),
});

const record = {
  id: 7,
  name: 'Flyer',
  price: 1234,
  size: { width: 148, height: 210 },
  kind: 'a' as const,
  note: null,
  tags: ['paper'],
  is_default: true,
  version: 3,
  refs: 2,
  marked_at: '2026-11-24T08:00:00.000Z',
};

describe('a stored entity, written once as a field list', () => {
  it('reads an item into its record, leniently: missing fields read as their defaults', () => {
    const item = {
      pk: 'T#x',
      sk: 'W',
      id: 7,
      name: 'Flyer',
      price: 1234,
      size_width: 148,
      size_height: 210,
      type: 'a',
      tags: ['paper'],
      refs: 2,
      version: 3,
      marked_at: '2026-11-24T08:00:00.000Z',
    };
    expect(widget.read(item)).toEqual({ ...record, is_default: false });
    expect(widget.read({ id: 8, name: 'Old', type: 'b' })).toMatchObject({ price: 0, note: null, tags: [], version: 1, refs: 0, size: {} });
  });

  it('writes every field with a value on a put, but counters, external marks and derived fields', () => {
    expect(widget.attributes(record, 'put')).toEqual({
      id: 7,
      name: 'Flyer',
      price: 1234,
      size_width: 148,
      size_height: 210,
      type: 'a',
      tags: ['paper'],
      version: 3,
    });
  });

  it('writes only what an update may change: not fixed fields, counters or external marks (an update from an older read cannot undo them); null stays', () => {
    expect(widget.attributes(record, 'update')).toEqual({
      name: 'Flyer',
      price: 1234,
      size_width: 148,
      size_height: 210,
      type: 'a',
      note: null,
      tags: ['paper'],
    });
  });

  it('shows the view: money as a 2-decimal number, internal fields and counters left out, in field order', () => {
    const view = widget.view(record);
    expect(view).toEqual({
      id: 7,
      name: 'Flyer',
      price: 12.34,
      size: { width: 148, height: 210 },
      kind: 'a',
      note: null,
      tags: ['paper'],
      is_default: true,
    });
    expect(Object.keys(view)).toEqual(['id', 'name', 'price', 'size', 'kind', 'note', 'tags', 'is_default']);
  });

  it('derives the response schema from the same list, documented where the field says so', () => {
    const schema = responseSchema(widget, { id: 'Widget' });
    expect(Object.keys(schema.shape)).toEqual(['id', 'name', 'price', 'size', 'kind', 'note', 'tags', 'is_default']);
    expect(schema.strict().parse(widget.view(record))).toEqual(widget.view(record));
    expect(schema.safeParse({ ...widget.view(record), kind: 'c' }).success).toBe(false);
    expect(schema.shape.name.meta()).toMatchObject({ description: 'What it is called', example: 'Flyer' });
    // A named nested object is one schema object, however often it is used (one OpenAPI component).
    expect(responseSchema(widget, { id: 'Widget' }).shape.size).toBe(schema.shape.size);
  });
});
