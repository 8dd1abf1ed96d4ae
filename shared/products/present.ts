/** The public view of a product: money back to 2-decimal numbers, bookkeeping left out, fields in one order. */
import { fromMinor } from '#shared/money';
import type { PriceQuote } from '#shared/pricing/product-price';
import type { ProductRecord } from './items';
import type { PriceQuoteView, Product } from './schema';

export function presentProduct(record: ProductRecord): Product {
  return {
    id: record.id,
    name: record.name,
    description: record.description,
    category: record.category,
    is_active: record.is_active,
    min_qty: record.min_qty,
    max_qty: record.max_qty,
    unit: record.unit,
    base_price: fromMinor(record.base_price),
    price_tiers: record.price_tiers.map((tier) => ({ min_qty: tier.min_qty, unit_price: fromMinor(tier.unit_price) })),
    options: record.options.map((option) => ({
      code: option.code,
      name: option.name,
      required: option.required,
      default: option.default,
      values: option.values.map((value) => ({
        code: value.code,
        name: value.name,
        price_delta: fromMinor(value.price_delta),
        price_factor: value.price_factor,
      })),
    })),
    setup_fee: fromMinor(record.setup_fee),
    production_days: record.production_days,
    stock: { tracked: record.stock.tracked, quantity: record.stock.quantity, low_threshold: record.stock.low_threshold },
    images: record.images,
    created_at: record.created_at,
    updated_at: record.updated_at,
  };
}

export function presentQuote(quote: PriceQuote): PriceQuoteView {
  return {
    product_id: quote.product_id,
    quantity: quote.quantity,
    unit_price: fromMinor(quote.unit_price),
    setup_fee: fromMinor(quote.setup_fee),
    subtotal: fromMinor(quote.subtotal),
    tax_rate: quote.tax_rate,
    tax: fromMinor(quote.tax),
    total: fromMinor(quote.total),
    currency: quote.currency,
    breakdown: quote.breakdown.map((line) => ({ label: line.label, amount: fromMinor(line.amount) })),
    production_days: quote.production_days,
  };
}
