/**
 * The lines a set of order lines bills (an order's for its invoice, a quote's for its PDF): each
 * line's units, and its setup fee, when it has one, as a line of its own — a valid e-invoice line
 * is quantity × price, and the customer sees the fee named. A legacy product's run, priced whole by
 * its table, is one line of quantity 1.
 */
import type { OrderLineRecord } from '#shared/orders/stored';
import type { DocumentLine } from './document';
import type { InvoiceLineRecord } from './stored';

export function billedLines(items: readonly OrderLineRecord[]): InvoiceLineRecord[] {
  const lines: InvoiceLineRecord[] = [];
  for (const item of items) {
    // A line's setup fee is charged as its line is: same category and rate.
    const base = {
      tax_category: item.tax_category,
      tax_rate: item.tax_rate,
      tax_exemption_reason: item.tax_exemption_reason,
      order_item_id: item.id,
    };
    if (item.price_source === 'table') {
      // A legacy product's run is priced whole: one run of its copies, so quantity × price holds.
      lines.push({
        ...base,
        position: lines.length + 1,
        description: `${item.description} (${item.quantity} copies)`,
        quantity: 1,
        unit_price: item.total,
        amount: item.total,
      });
      continue;
    }
    lines.push({
      ...base,
      position: lines.length + 1,
      description: item.description,
      quantity: item.quantity,
      unit_price: item.unit_price,
      amount: item.total - item.setup_fee,
    });
    if (item.setup_fee > 0) {
      lines.push({
        ...base,
        position: lines.length + 1,
        description: `Setup: ${item.description}`,
        quantity: 1,
        unit_price: item.setup_fee,
        amount: item.setup_fee,
      });
    }
  }
  return lines;
}

/** A billed line as the document renderers take it. */
export const documentLine = (line: InvoiceLineRecord): DocumentLine => ({
  position: line.position,
  description: line.description,
  quantity: line.quantity,
  unit_price: line.unit_price,
  tax_category: line.tax_category,
  tax_rate: line.tax_rate,
  exemption_reason: line.tax_exemption_reason,
  net_amount: line.amount,
});
