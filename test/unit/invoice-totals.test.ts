import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compactCode, isValidBic, isValidIban, isValidVatId, missingInvoiceFields, emptyCompany } from '#shared/accounts/company';
import { orderTotals } from '#shared/orders/lines';
import { formatInvoiceNumber } from '#shared/invoices/numbering';
import { assertPayable, assertSendable, assertVoidable, isOverdue } from '#shared/invoices/status';
import { invoiceTotals, lineAmount, lineAmountProblems } from '#shared/invoices/totals';
import { taxOn } from '#shared/pricing/tax';

describe('invoice amounts', () => {
  it('rounds a line half-up: 1.5 × 65.55 is 98.33, 0.333 × 0.01 is 0.00, 2.5 × 0.01 is 0.03', () => {
    expect(lineAmount(1.5, 6555)).toBe(9833);
    expect(lineAmount(0.333, 1)).toBe(0);
    expect(lineAmount(2.5, 1)).toBe(3);
    expect(lineAmount(1000000, 100000000)).toBe(100000000000000);
  });

  it('keeps free lines within 1,000,000,000.00 each and together, naming the line or the lines', () => {
    const at = (amount: number) => ({ amount });
    expect(lineAmountProblems([at(100_000_000_000), at(0)])).toEqual([]);
    expect(lineAmountProblems([at(1), at(lineAmount(1_000_000, 100_000_000))])).toEqual([
      { field: 'items.1', message: 'quantity × unit_price is more than 1000000000' },
    ]);
    expect(lineAmountProblems(Array.from({ length: 200 }, () => at(lineAmount(1000, 100_000_000))))).toEqual([
      { field: 'items', message: 'the lines add up to more than 1000000000; split the invoice' },
    ]);
  });

  it('groups tax by category and rate, highest first, and rounds it once per group; tax_breakdown keeps the per-rate view', () => {
    const totals = invoiceTotals(
      [
        { amount: 9833, tax_category: 'standard', tax_rate: 19 },
        { amount: 2997, tax_category: 'reduced', tax_rate: 7 },
        { amount: 1000, tax_category: 'zero', tax_rate: 0 },
        { amount: 1, tax_category: 'standard', tax_rate: 19 },
      ],
      { amount: 490, tax_category: 'standard', tax_rate: 19 },
    );
    expect(totals.taxes).toEqual([
      { category: 'standard', rate: 19, taxable_amount: 9833 + 1 + 490, tax_amount: taxOn(10324, 19) },
      { category: 'reduced', rate: 7, taxable_amount: 2997, tax_amount: 210 },
      { category: 'zero', rate: 0, taxable_amount: 1000, tax_amount: 0 },
    ]);
    expect(totals.tax).toBe(taxOn(10324, 19) + 210);
    expect(totals.tax_breakdown).toEqual([
      { tax_rate: 19, taxable_amount: 9833 + 1 + 490, tax: taxOn(10324, 19) },
      { tax_rate: 7, taxable_amount: 2997, tax: 210 },
      { tax_rate: 0, taxable_amount: 1000, tax: 0 },
    ]);
    expect(totals.subtotal).toBe(9833 + 2997 + 1000 + 1);
    expect(totals.total).toBe(totals.subtotal + 490 + totals.tax);
  });

  it('keeps total = Σ lines + shipping + Σ tax per rate, and tax per rate = taxable × rate rounded half-up (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            amount: fc.integer({ min: 0, max: 10 ** 9 }),
            tax_category: fc.constantFrom('standard' as const, 'reduced' as const),
            tax_rate: fc.constantFrom(0, 5.5, 7, 7.7, 19, 20),
          }),
          { minLength: 1, maxLength: 200 },
        ),
        fc.integer({ min: 0, max: 10 ** 7 }),
        fc.constantFrom(0, 7, 19),
        (lines, shipping, shippingRate) => {
          const totals = invoiceTotals(lines, { amount: shipping, tax_category: 'standard', tax_rate: shippingRate });
          const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
          expect(totals.subtotal).toBe(sum(lines.map((line) => line.amount)));
          expect(sum(totals.tax_breakdown.map((group) => group.taxable_amount))).toBe(totals.subtotal + shipping);
          // Rounded once per category and rate; the per-rate view sums those groups.
          expect(sum(totals.taxes.map((entry) => entry.taxable_amount))).toBe(totals.subtotal + shipping);
          for (const entry of totals.taxes) expect(entry.tax_amount).toBe(taxOn(entry.taxable_amount, entry.rate));
          expect(new Set(totals.taxes.map((entry) => `${entry.category}:${entry.rate}`)).size).toBe(totals.taxes.length);
          expect(totals.tax).toBe(sum(totals.taxes.map((entry) => entry.tax_amount)));
          expect(totals.tax).toBe(sum(totals.tax_breakdown.map((group) => group.tax)));
          expect(totals.total).toBe(totals.subtotal + shipping + totals.tax);
          expect(new Set(totals.tax_breakdown.map((group) => group.tax_rate)).size).toBe(totals.tax_breakdown.length);
        },
      ),
    );
  });

  it("gives an order's invoice exactly the order's totals (one rate, shipping taxed with the lines)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 10 ** 8 }), { minLength: 1, maxLength: 25 }),
        fc.integer({ min: 0, max: 10 ** 6 }),
        fc.constantFrom(0, 7, 7.7, 19),
        (lineTotals, shipping, rate) => {
          const order = orderTotals(
            lineTotals.map((total) => ({ total, tax_category: 'standard' as const, tax_rate: rate })),
            { amount: shipping, tax_category: 'standard', tax_rate: rate },
          );
          const invoice = invoiceTotals(
            lineTotals.map((amount) => ({ amount, tax_category: 'standard' as const, tax_rate: rate })),
            { amount: shipping, tax_category: 'standard', tax_rate: rate },
          );
          expect([invoice.subtotal, invoice.tax, invoice.total]).toEqual([order.subtotal, order.tax, order.total]);
        },
      ),
    );
  });
});

describe('invoice numbers and states', () => {
  it('formats INV-<year>-<6 digits> and grows past 999999', () => {
    expect(formatInvoiceNumber(2026, 17)).toBe('INV-2026-000017');
    expect(formatInvoiceNumber(2027, 1234567)).toBe('INV-2027-1234567');
  });

  it('is overdue only while unpaid and after its due date', () => {
    expect(isOverdue('open', '2026-11-23', '2026-11-24')).toBe(true);
    expect(isOverdue('sent', '2026-11-23', '2026-11-24')).toBe(true);
    expect(isOverdue('open', '2026-11-24', '2026-11-24')).toBe(false);
    expect(isOverdue('paid', '2026-01-01', '2026-11-24')).toBe(false);
    expect(isOverdue('void', '2026-01-01', '2026-11-24')).toBe(false);
  });

  it('takes payments only while something is due, voids only without payments and credit notes, sends anything but void', () => {
    expect(() => assertPayable('INV-1', 'open')).not.toThrow();
    expect(() => assertPayable('INV-1', 'sent')).not.toThrow();
    expect(() => assertPayable('INV-1', 'paid')).toThrow(/already paid/);
    expect(() => assertPayable('INV-1', 'credited')).toThrow(/credited in full/);
    expect(() => assertPayable('INV-1', 'void')).toThrow(/void/);
    expect(() => assertVoidable('INV-1', 'open', 0, 0)).not.toThrow();
    expect(() => assertVoidable('INV-1', 'sent', 1, 0)).toThrow(/payments/);
    expect(() => assertVoidable('INV-1', 'open', 0, 1)).toThrow(/credit notes/);
    expect(() => assertVoidable('INV-1', 'void', 0, 0)).toThrow(/already void/);
    expect(() => assertSendable('INV-1', 'paid')).not.toThrow();
    expect(() => assertSendable('INV-1', 'void')).toThrow(/void/);
  });
});

describe('company details', () => {
  it('checks IBANs by their mod-97 check digits, BICs and VAT IDs by their form', () => {
    expect(isValidIban('DE89 3704 0044 0532 0130 00')).toBe(true);
    expect(isValidIban('GB82 WEST 1234 5698 7654 32')).toBe(true);
    expect(isValidIban('DE88 3704 0044 0532 0130 00')).toBe(false);
    expect(isValidIban('DE89')).toBe(false);
    expect(isValidBic('COBADEFFXXX')).toBe(true);
    expect(isValidBic('cobadeff')).toBe(true);
    expect(isValidBic('COBADE')).toBe(false);
    expect(isValidVatId('DE 123 456 789')).toBe(true);
    expect(isValidVatId('123456789')).toBe(false);
    expect(compactCode('de89 3704-0044')).toBe('DE8937040044');
  });

  it('names the fields an invoice cannot be issued without', () => {
    expect(missingInvoiceFields(null)).toEqual([
      'company.legal_name',
      'company.address',
      'company.vat_id',
      'company.email',
      'company.phone',
    ]);
    expect(missingInvoiceFields({ ...emptyCompany(), legal_name: 'X', tax_number: '1', email: 'a@b.c', phone: '1' })).toEqual([
      'company.address',
    ]);
  });
});
