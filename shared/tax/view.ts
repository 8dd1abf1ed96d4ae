/** A breakdown entry as answers show it: money as 2-decimal numbers. */
import { fromMinor } from '#shared/money';
import type { TaxBreakdownEntry } from './categories';

export interface TaxBreakdownView {
  category: TaxBreakdownEntry['category'];
  rate: number;
  taxable_amount: number;
  tax_amount: number;
}

export const taxEntryView = (entry: TaxBreakdownEntry): TaxBreakdownView => ({
  category: entry.category,
  rate: entry.rate,
  taxable_amount: fromMinor(entry.taxable_amount),
  tax_amount: fromMinor(entry.tax_amount),
});
