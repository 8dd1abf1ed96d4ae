import { describe, expect, it } from 'vitest';
import { customerCreated, customerUpdated } from '#shared/customers/events';
import { eventKinds, resourceTypeOf } from '#shared/events/catalogue';
import { eventPut } from '#shared/events/outbox';
import { buildOpenApiDocument } from '#shared/openapi/document';
import { declaredEvents, undeclaredKinds } from '#shared/openapi/events';
import { sampleData } from '#shared/webhooks/samples';

const tenant = { accountId: 'acct_1', mode: 'live' as const };
const customer = {
  id: 1,
  name: 'Anna',
  email: 'anna@example.com',
  phone: null,
  company: null,
  vat_id: null,
  vat_validation: null,
  tax_treatment_override: null,
  tax_treatment: 'domestic' as const,
  tax_treatment_warning: null,
  notes: null,
  guest: false,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
};

describe('the event catalogue', () => {
  it("holds all 19 kinds the spec lists, shipment.returned (docs/shipping.md#returns), the proofs' 3 (docs/proofs.md) and the credit notes' 2, each with a resource type", () => {
    expect(eventKinds).toHaveLength(25);
    expect(new Set(eventKinds).size).toBe(25);
    expect(eventKinds).toContain('shipment.returned');
    expect(eventKinds).toEqual(expect.arrayContaining(['invoice.updated', 'credit_note.created']));
    expect(eventKinds.filter((kind) => kind.startsWith('proof.'))).toEqual(['proof.created', 'proof.approved', 'proof.changes_requested']);
    for (const kind of eventKinds) expect(resourceTypeOf[kind]).toBeTruthy();
  });

  it('has every kind declared once with its payload schema, but those of resources not built yet', () => {
    const declared = declaredEvents.map((definition) => definition.kind);
    expect(new Set(declared).size).toBe(declared.length);
    expect([...declared, ...undeclaredKinds].sort()).toEqual([...eventKinds].sort());
    expect(undeclaredKinds.every((kind) => /^(invoice|quote|production|shipment)\./.test(kind))).toBe(true);
    for (const definition of declaredEvents) expect(Object.keys(definition.payload.shape)).toContain(resourceTypeOf[definition.kind]);
  });

  it('sends test events whose sample payload has exactly the declared shape', () => {
    for (const definition of declaredEvents) {
      const sample = sampleData(definition.kind, '2026-01-01T00:00:00.000Z');
      const parsed = definition.payload.safeParse(sample);
      expect(parsed.success, `${definition.kind}: ${parsed.error?.message}`).toBe(true);
      // Exactly: nothing the declared schema would strip.
      expect(parsed.data, definition.kind).toEqual(sample);
    }
  });

  it('shows every declared payload in the OpenAPI document, the resource by reference', () => {
    type EventBody = { properties: { event: { enum: string[] }; data: { properties: Record<string, unknown> } } };
    const schemas = (buildOpenApiDocument() as unknown as { components: { schemas: Record<string, EventBody> } }).components.schemas;
    for (const definition of declaredEvents) {
      const body = schemas[`WebhookEvent.${definition.kind}`];
      expect(body?.properties.event.enum, definition.kind).toEqual([definition.kind]);
      expect(Object.keys(body!.properties.data.properties)).toContain(resourceTypeOf[definition.kind]);
    }
    expect(schemas['WebhookEvent.order.created']!.properties.data.properties.order).toEqual({ $ref: '#/components/schemas/Order' });
  });
});

describe('the outbox writer', () => {
  it('puts the resource under its type name in a conditional put keyed by tenant', () => {
    const { event, item } = eventPut(tenant, customerCreated, { customer }, new Date('2026-01-01T00:00:00Z'));
    expect(event.id).toMatch(/^evt_/);
    expect(event.data).toEqual({ customer });
    const put = item.Put!;
    expect(put.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(put.Item!.pk).toBe(`T#acct_1#live#EVENT#${event.id}`);
    expect(put.Item).toMatchObject({
      kind: 'customer.created',
      mode: 'live',
      account_id: 'acct_1',
      created_at: '2026-01-01T00:00:00.000Z',
      gsi1sk: event.id,
    });
    expect(put.Item!.expires_at).toBe(Date.parse('2026-01-31T00:00:00Z') / 1000);
  });

  it('gives events time-ordered, unique ids', async () => {
    const first = eventPut(tenant, customerUpdated, { customer }).event.id;
    await new Promise((resolve) => setTimeout(resolve, 2));
    const second = eventPut(tenant, customerUpdated, { customer }).event.id;
    expect(second > first).toBe(true);
  });

  it('refuses, at compile time, a payload that is not its kind’s', () => {
    // @ts-expect-error customer.created carries a customer, not an order
    eventPut(tenant, customerCreated, { order: { id: 1 } });
    expect(true).toBe(true);
  });
});
