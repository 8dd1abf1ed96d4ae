import { describe, expect, it } from 'vitest';
import { planCredit, type CreditPlan } from '#shared/credit-notes/credit';
import { CreditNoteCreateSchema } from '#shared/credit-notes/schema';
import { ValidationError } from '#shared/errors';
import { uncredited } from '#shared/invoices/credits';
import type { InvoiceRecord } from '#shared/invoices/stored';
import { invoiceTotals, lineAmount, refundDue } from '#shared/invoices/totals';
import { taxOn } from '#shared/pricing/tax';

/** An invoice record around `lines` (quantity, unit price in minor units, rate), totals computed as issuing does. */
function invoiceOf(lines: [number, number, number][], shipping = 0): InvoiceRecord {
  const items = lines.map(([quantity, unitPrice, rate], index) => ({
    position: index + 1,
    description: `Line ${index + 1}`,
    quantity,
    unit_price: unitPrice,
    tax_category: 'standard' as const,
    tax_rate: rate,
    tax_exemption_reason: null,
    amount: lineAmount(quantity, unitPrice),
    order_item_id: null,
  }));
  const totals = invoiceTotals(items, { amount: shipping, tax_category: 'standard', tax_rate: 19 });
  return {
    id: 1,
    invoice_number: 'INV-2026-000001',
    order_id: null,
    order_number: null,
    status: 'open',
    overdue: false,
    customer: { id: 1, name: 'A', email: 'a@example.com', company: null, vat_id: null, buyer_reference: null, billing_address: null },
    seller: {
      legal_name: 'S',
      address: { name: 'S', company: null, line1: 'x', line2: null, postal_code: '1', city: 'B', region: null, country: 'DE' },
      vat_id: 'DE136695976',
      tax_number: null,
      iban: null,
      bic: null,
      email: 's@example.com',
      phone: '1',
      payment_terms_days: 14,
      footer: null,
    },
    items,
    subtotal: totals.subtotal,
    shipping,
    shipping_tax_category: 'standard',
    shipping_tax_rate: 19,
    tax_rate: null,
    tax_treatment: 'domestic',
    tax_treatment_warning: null,
    customer_vat_id: null,
    vat_validation: null,
    taxes: totals.taxes,
    tax_breakdown: totals.tax_breakdown,
    tax: totals.tax,
    total: totals.total,
    amount_paid: 0,
    amount_due: totals.total,
    amount_credited: 0,
    amount_refunded: 0,
    refund_due: 0,
    credited_items: [],
    shipping_credited: 0,
    credit_notes: [],
    currency: 'EUR',
    notes: null,
    issued_at: '2026-11-01T10:00:00.000Z',
    due_date: '2026-11-15',
    service_date: '2026-11-01',
    sent_at: null,
    last_sent_at: null,
    paid_at: null,
    voided_at: null,
    payments: [],
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
    version: 1,
  };
}

/** The invoice after `plan`, as shared/invoices/credits.ts records it. */
function applied(invoice: InvoiceRecord, plan: CreditPlan): InvoiceRecord {
  const lines = new Map(invoice.credited_items.map((line) => [line.position, { ...line }]));
  for (const line of plan.items) {
    const done = lines.get(line.invoice_position) ?? { position: line.invoice_position, quantity: 0, amount: 0 };
    lines.set(line.invoice_position, {
      position: done.position,
      quantity: Math.round((done.quantity + line.quantity_credited) * 1000) / 1000,
      amount: done.amount + line.amount,
    });
  }
  return {
    ...invoice,
    credited_items: [...lines.values()],
    shipping_credited: invoice.shipping_credited + plan.shipping,
    amount_credited: invoice.amount_credited + plan.total,
  };
}

const input = (body: Record<string, unknown>) => CreditNoteCreateSchema.parse({ reason: 'Test', ...body });

describe('what a credit note credits', () => {
  it('credits everything uncredited without items: the lines, the shipping, exactly the invoice', () => {
    const invoice = invoiceOf(
      [
        [333, 37, 19],
        [7, 1299, 7],
        [1, 5000, 0],
      ],
      690,
    );
    const plan = planCredit(invoice, input({}));
    expect(plan.items.map((line) => [line.invoice_position, line.quantity, line.amount])).toEqual([
      [1, 333, 12321],
      [2, 7, 9093],
      [3, 1, 5000],
    ]);
    expect(plan.shipping).toBe(690);
    expect([plan.subtotal + plan.shipping, plan.tax, plan.total]).toEqual([
      invoice.subtotal + invoice.shipping,
      invoice.tax,
      invoice.total,
    ]);
    expect(plan.taxes).toEqual(invoice.taxes);
  });

  it('adds up to exactly the tax and total of the invoice over many small credit notes, never above, each within 2 cents of taxable × rate', () => {
    const invoice0 = invoiceOf(
      [
        [97, 3, 19],
        [13, 7, 7],
      ],
      5,
    );
    let invoice = invoice0;
    let credited = 0;
    // One piece at a time of line 1, then of line 2, then the rest (shipping).
    const steps = [
      ...Array.from({ length: 97 }, () => ({ items: [{ position: 1, quantity: 1 }] })),
      ...Array.from({ length: 13 }, () => ({ items: [{ position: 2, quantity: 1 }] })),
      {},
    ];
    for (const step of steps) {
      const plan = planCredit(invoice, input(step));
      for (const group of plan.taxes) expect(Math.abs(group.tax_amount - taxOn(group.taxable_amount, group.rate))).toBeLessThanOrEqual(2);
      credited += plan.total;
      invoice = applied(invoice, plan);
      expect(invoice.amount_credited).toBeLessThanOrEqual(invoice.total);
    }
    expect(credited).toBe(invoice0.total);
    expect(uncredited(invoice)).toMatchObject({ shipping: 0, total: 0 });
    expect(() => planCredit(invoice, input({}))).toThrow(ValidationError);
  });

  it('credits the rest of a line exactly, and refuses more than is left per line, naming the field', () => {
    const invoice = invoiceOf([[3, 333, 19]]);
    // 1 × 3.33 twice, then the rest: 9.99 − 6.66 = 3.33 (the line's remaining amount, whatever the rounding).
    let current = invoice;
    for (const quantity of [1, 1, 1]) current = applied(current, planCredit(current, input({ items: [{ position: 1, quantity }] })));
    expect(uncredited(current).lines.get(1)).toEqual({ position: 1, quantity: 0, amount: 0 });

    const half = applied(invoice, planCredit(invoice, input({ items: [{ position: 1, amount: 9 }] })));
    const fields = (body: Record<string, unknown>, on = half) => {
      try {
        planCredit(on, input(body));
        return [];
      } catch (error) {
        return (error as ValidationError).details!.map((detail) => detail.field);
      }
    };
    // The price reduction took 9.00 of 9.99: 2 pieces at 3.33 are more than the 0.99 left.
    expect(fields({ items: [{ position: 1, quantity: 2 }] })).toEqual(['items.0.quantity']);
    expect(fields({ items: [{ position: 1, quantity: 4 }] })).toEqual(['items.0.quantity']);
    expect(fields({ items: [{ position: 1, amount: 1 }] })).toEqual(['items.0.amount']);
    expect(fields({ items: [{ position: 2, amount: 1 }] })).toEqual(['items.0.position']);
    expect(
      fields({
        items: [
          { position: 1, amount: 0.5 },
          { position: 1, amount: 0.1 },
        ],
      }),
    ).toEqual(['items.1.position']);
    expect(fields({ shipping: 1 })).toEqual(['shipping']);
    // The whole remaining quantity credits the remaining amount, not 3 × 3.33.
    expect(planCredit(half, input({ items: [{ position: 1, quantity: 3 }] })).subtotal).toBe(99);
  });

  it('owes a refund only for what was paid beyond what is owed after the credit notes', () => {
    const base = { total: 11900, amount_refunded: 0 };
    expect(refundDue({ ...base, amount_paid: 11900, amount_credited: 1190 })).toBe(1190);
    expect(refundDue({ ...base, amount_paid: 5000, amount_credited: 1190 })).toBe(0);
    expect(refundDue({ ...base, amount_paid: 11000, amount_credited: 1190 })).toBe(290);
    expect(refundDue({ ...base, amount_paid: 11900, amount_credited: 11900, amount_refunded: 11900 })).toBe(0);
  });
});
