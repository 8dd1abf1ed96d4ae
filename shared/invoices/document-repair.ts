/**
 * Repairing stored invoice documents (`npm run documents -- rerender`): an invoice issued before
 * input refused the characters XML 1.0 cannot hold (U+FFFF in a company name) may have been stored
 * as an ill-formed e-invoice. The renderers now draw such characters as U+FFFD; this walks a
 * tenant's invoices (a page of 100 at a time, by cursor) and renders again the stored documents of
 * each invoice whose text holds one — or of one named invoice, or of all with `all`.
 */
import type { Tenant } from '#shared/auth/principal';
import { hasNonXmlText } from '#shared/schemas/text';
import { rerenderStoredDocuments } from './documents';
import { listInvoices, requireInvoice } from './repository';
import type { InvoiceRecord } from './stored';

export interface RerenderResult {
  /** Invoices looked at. */
  invoices: number;
  /** Invoices whose stored documents were rendered again. */
  rerendered: number;
  /** Documents stored again (PDF, CII, UBL). */
  documents: number;
}

const PAGE = 100;

export async function rerenderInvoiceDocuments(
  tenant: Tenant,
  options: { invoiceId?: number; all?: boolean; onProgress?: (result: RerenderResult) => void } = {},
): Promise<RerenderResult> {
  const result: RerenderResult = { invoices: 0, rerendered: 0, documents: 0 };
  const repair = async (invoice: InvoiceRecord, always: boolean) => {
    result.invoices++;
    if (!always && !hasNonXmlText(invoice)) return;
    const kinds = await rerenderStoredDocuments(tenant, invoice);
    if (kinds.length) result.rerendered++;
    result.documents += kinds.length;
  };
  if (options.invoiceId !== undefined) {
    await repair(await requireInvoice(tenant, options.invoiceId, true), true);
    return result;
  }
  let after: InvoiceRecord | undefined;
  for (;;) {
    const page = await listInvoices(tenant, {}, { page: 1, perPage: PAGE, ...(after ? { after } : {}) });
    for (const invoice of page.items) await repair(invoice, options.all === true);
    options.onProgress?.(result);
    if (!page.hasMore || page.items.length === 0) return result;
    after = page.items.at(-1);
  }
}
