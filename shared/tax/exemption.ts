/** The rule of a declared category and its exemption reason (zod-free: the order and invoice paths take it without the schemas). */
import type { ErrorDetail } from '#shared/errors';
import type { TaxCategory } from './categories';

/** With tax_category exempt a reason is required; any other category takes none. */
export function exemptionProblems(value: { tax_category: TaxCategory; tax_exemption_reason: string | null }, prefix = ''): ErrorDetail[] {
  if (value.tax_category === 'exempt' && !value.tax_exemption_reason) {
    return [{ field: `${prefix}tax_exemption_reason`, message: 'is required when tax_category is exempt' }];
  }
  if (value.tax_category !== 'exempt' && value.tax_exemption_reason) {
    return [{ field: `${prefix}tax_exemption_reason`, message: 'is only for tax_category exempt' }];
  }
  return [];
}
