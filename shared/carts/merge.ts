/**
 * The merge rule (docs/carts.md#merge-on-login) — pure: what a session cart's lines become in the
 * customer's cart.
 */
import { MAX_LINE_FILES, MAX_LINE_QUANTITY } from '#shared/orders/schema';
import { priceLine } from './line-pricing';
import { specOf, type Catalogue, type LineSpec } from './pricing';
import type { CartRecord } from './stored';

const sameChoice = (a: Record<string, string>, b: Record<string, string>): boolean =>
  JSON.stringify(Object.entries(a).sort()) === JSON.stringify(Object.entries(b).sort());

/**
 * The merge rule: a session line of the same product with the same options as a line of the
 * customer's cart adds its quantity to that line (priced again for the sum); every other line is
 * appended with the price it holds. A sum the product does not allow (over its max_qty), or that
 * an order's line could not take (over MAX_LINE_QUANTITY, or more than MAX_LINE_FILES files
 * joined), stays two lines: a merge never makes a line the cart's own schema would refuse.
 */
export function mergeLines(target: CartRecord, source: CartRecord, catalogue: Catalogue): Pick<CartRecord, 'items' | 'next_line_id'> {
  const items = [...target.items];
  let next = target.next_line_id;
  for (const line of source.items) {
    const index =
      line.kind === 'product'
        ? items.findIndex(
            (candidate) =>
              candidate.kind === 'product' && candidate.product_id === line.product_id && sameChoice(candidate.options, line.options),
          )
        : -1;
    if (index >= 0) {
      const into = items[index]!;
      const quantity = into.quantity + line.quantity;
      const files = [...new Set([...into.file_ids, ...line.file_ids])];
      const price =
        quantity <= MAX_LINE_QUANTITY && files.length <= MAX_LINE_FILES && priceLine({ ...specOf(into), quantity } as LineSpec, catalogue);
      if (price && price.ok) {
        items[index] = {
          ...into,
          quantity,
          unit_price: price.unit_price,
          setup_fee: price.setup_fee,
          file_ids: files,
          note: into.note ?? line.note,
        };
        continue;
      }
    }
    items.push({ ...line, id: next++ });
  }
  return { items, next_line_id: next };
}
