/**
 * Legacy products on order and quote lines: each line names a product and a cell of its table
 * (format, color, quantity, pages), and costs the table's price of that whole run — the same
 * lookup `POST /v1/legacy-products/{id}/calculate` makes, with its problems (field names
 * included). Two batched reads for all lines: the products, then the cells of their live tables.
 */
import type { Tenant } from '#shared/auth/principal';
import { batchGet, keyId } from '#shared/db/batch';
import { legacyProductKeys, type ItemKey } from '#shared/db/keys';
import type { ErrorDetail } from '#shared/errors';
import type { TaxCategory } from '#shared/tax/categories';
import { cellProblems } from './lookup';
import { legacyProductFromItem, type LegacyProductRecord } from './stored';

export interface LegacyCellRequest {
  legacy_product_id: number;
  format: string;
  color: string;
  quantity: number;
  pages: number;
}

/** A line's price (minor units: the whole run, net) and product name, or its problems (fields relative to the line). */
export type LegacyLinePrice =
  | { ok: true; name: string; price: number; tax_category: TaxCategory; tax_exemption_reason: string | null }
  | { ok: false; problems: ErrorDetail[] };

/** Prices the legacy lines among `lines` (undefined: not a legacy line), by their index. */
export async function priceLegacyLines(
  tenant: Tenant,
  lines: readonly (LegacyCellRequest | undefined)[],
): Promise<Map<number, LegacyLinePrice>> {
  const wanted = lines.flatMap((line, index) => (line ? [{ index, line }] : []));
  const answers = new Map<number, LegacyLinePrice>();
  if (wanted.length === 0) return answers;
  const ids = [...new Set(wanted.map(({ line }) => line.legacy_product_id))];
  const productKeys = ids.map((id) => legacyProductKeys.legacyProduct(tenant, id));
  const found = await batchGet(productKeys, { consistent: true });
  const products = new Map<number, LegacyProductRecord>();
  for (const item of found.values()) {
    const product = legacyProductFromItem(item);
    products.set(product.id, product);
  }
  const cells: { index: number; line: LegacyCellRequest; product: LegacyProductRecord; key: ItemKey }[] = [];
  for (const { index, line } of wanted) {
    const product = products.get(line.legacy_product_id);
    if (!product) {
      answers.set(index, {
        ok: false,
        problems: [{ field: 'legacy_product_id', message: `No legacy product with id ${line.legacy_product_id}` }],
      });
      continue;
    }
    const problems = cellProblems(product, line).map((problem) =>
      problem.field === 'id' ? { ...problem, field: 'legacy_product_id' } : problem,
    );
    if (problems.length) {
      answers.set(index, { ok: false, problems });
      continue;
    }
    cells.push({ index, line, product, key: legacyProductKeys.legacyPrice(tenant, product.id, product.price_version, line) });
  }
  const prices = cells.length
    ? await batchGet(
        cells.map((cell) => cell.key),
        { consistent: true },
      )
    : new Map();
  for (const { index, product, key } of cells) {
    const item = prices.get(keyId(key));
    answers.set(
      index,
      item
        ? {
            ok: true,
            name: product.name,
            price: Number(item.price),
            tax_category: product.tax_category,
            tax_exemption_reason: product.tax_exemption_reason,
          }
        : { ok: false, problems: [{ field: 'quantity', message: 'There is no price for this combination in the table' }] },
    );
  }
  return answers;
}
