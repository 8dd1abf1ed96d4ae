import type { DocumentLine } from '#shared/invoices/document';
import { lineAmount } from '#shared/invoices/totals';

/**
 * What a line's net amount holds beyond quantity × unit price (rounded as the invoice service
 * rounds it): the setup fee of an order line, or a negative adjustment. The PDF prints it under
 * the description; the e-invoice carries it as a line charge or allowance (BG-27/BG-28), so
 * quantity × price + charges − allowances equals the line's net amount exactly.
 */
export function lineAdjustment(line: DocumentLine): number {
  return line.net_amount - lineAmount(line.quantity, line.unit_price);
}
