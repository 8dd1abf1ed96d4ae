/**
 * The seller identifier (BT-29) in the CII syntax. @e-invoice-eu/core (2.3.x) maps the seller's
 * `cac:PartyIdentification` into UBL but never into CII's `ram:SellerTradeParty/ram:ID`, so a
 * seller without a VAT ID — identified by its tax number (e-invoice-mapping.ts) — has no
 * identifier at all in the CII and breaks BR-CO-26 ("BT-29, BT-30 or BT-31 shall be present").
 *
 * `installCiiSellerIdentifier` wraps the library's CII step (`generate` of its CII formatter,
 * which the Factur-X hybrid calls too, so the embedded XML gets it as well): it hands the
 * identifier the UBL-shaped invoice carries to the library's `postProcess` of that one call,
 * which puts it first in the seller party, where the CII schema wants `ram:ID`. The same wrapper
 * adds a credit note's preceding invoice reference, which the library's CII mapping loses
 * (cii-preceding-invoice.ts), and drops the currency the library writes on line charges
 * (cii-line-charges.ts): one step can be wrapped once.
 */
import type { Invoice as EInvoice } from '@e-invoice-eu/core';
import { withoutLineChargeCurrency } from './cii-line-charges';
import { precedingInvoiceOf, withPrecedingInvoice } from './cii-preceding-invoice';
import { replaceLibraryStep } from './library-steps';

type CiiNode = Record<string, unknown>;

interface CiiStep {
  generate(invoice: EInvoice, options: unknown): Promise<string | Uint8Array>;
  postProcess(cii: CiiNode): void;
}

const child = (node: unknown, name: string): CiiNode | undefined =>
  typeof node === 'object' && node !== null ? ((node as CiiNode)[name] as CiiNode | undefined) : undefined;

/** The seller identifier the UBL-shaped invoice carries (BT-29), if any. */
function sellerIdentifierOf(invoice: EInvoice): string | undefined {
  const party = invoice['ubl:Invoice']['cac:AccountingSupplierParty']['cac:Party'];
  const identifications = party['cac:PartyIdentification'];
  const first = Array.isArray(identifications) ? identifications[0] : identifications;
  const id = first?.['cbc:ID'];
  return typeof id === 'string' ? id : undefined;
}

/** `cii` with `id` as the seller party's first element, unless it has one. */
export function withSellerIdentifier(cii: CiiNode, id: string): void {
  const agreement = child(
    child(child(cii, 'rsm:CrossIndustryInvoice'), 'rsm:SupplyChainTradeTransaction'),
    'ram:ApplicableHeaderTradeAgreement',
  );
  const seller = child(agreement, 'ram:SellerTradeParty');
  if (!agreement || !seller || seller['ram:ID'] !== undefined) return;
  // Rebuilt rather than assigned: the XML follows the object's key order, and ram:ID comes first.
  agreement['ram:SellerTradeParty'] = { 'ram:ID': id, ...seller };
}

/** Wraps the library's CII step (see above; library-steps.ts). */
export function installCiiSellerIdentifier(ciiFormat: string): void {
  replaceLibraryStep<CiiStep, 'generate'>(
    ciiFormat,
    'generate',
    (generate) =>
      function (this: CiiStep, invoice, options) {
        const id = sellerIdentifierOf(invoice);
        const preceding = precedingInvoiceOf(invoice);
        // This formatter instance serves this one call (the library makes one per generate).
        const postProcess = this.postProcess;
        this.postProcess = (cii) => {
          postProcess.call(this, cii);
          if (id !== undefined) withSellerIdentifier(cii, id);
          if (preceding !== undefined) withPrecedingInvoice(cii, preceding);
          withoutLineChargeCurrency(cii);
        };
        return generate.call(this, invoice, options);
      },
  );
}
