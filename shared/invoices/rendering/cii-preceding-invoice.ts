/**
 * The preceding invoice reference (BG-3: BT-25 number, BT-26 issue date) in the CII syntax.
 * @e-invoice-eu/core (2.3.x) writes the UBL `cac:BillingReference` but its CII mapping reads the
 * number and date one level too high (beside `cac:InvoiceDocumentReference`, not inside it), so a
 * credit note's CII had no `ram:InvoiceReferencedDocument` at all — and it would write the date as
 * `udt:`, where the CII schema wants `qdt:DateTimeString`.
 *
 * `withPrecedingInvoice` adds it to the header trade settlement after the monetary summation, where
 * the CII schema wants it; the library's CII step is wrapped in cii-seller-identifier.ts, which
 * applies both CII repairs in the same call (the Factur-X hybrid's embedded XML gets it too).
 */
import type { Invoice as EInvoice } from '@e-invoice-eu/core';

type CiiNode = Record<string, unknown>;

export interface PrecedingReference {
  number: string;
  /** YYYY-MM-DD. */
  issueDate: string | undefined;
}

const child = (node: unknown, name: string): CiiNode | undefined =>
  typeof node === 'object' && node !== null ? ((node as CiiNode)[name] as CiiNode | undefined) : undefined;

/** The first preceding invoice the UBL-shaped invoice names (BT-25, BT-26), if any. */
export function precedingInvoiceOf(invoice: EInvoice): PrecedingReference | undefined {
  const reference = invoice['ubl:Invoice']['cac:BillingReference']?.[0]?.['cac:InvoiceDocumentReference'];
  if (!reference?.['cbc:ID']) return undefined;
  return { number: reference['cbc:ID'], issueDate: reference['cbc:IssueDate'] };
}

/** `cii` with `reference` as `ram:InvoiceReferencedDocument` right after the monetary summation, unless it has one. */
export function withPrecedingInvoice(cii: CiiNode, reference: PrecedingReference): void {
  const transaction = child(child(cii, 'rsm:CrossIndustryInvoice'), 'rsm:SupplyChainTradeTransaction');
  const settlement = child(transaction, 'ram:ApplicableHeaderTradeSettlement');
  if (!transaction || !settlement || settlement['ram:InvoiceReferencedDocument'] !== undefined) return;
  const document: CiiNode = {
    'ram:IssuerAssignedID': reference.number,
    ...(reference.issueDate
      ? {
          'ram:FormattedIssueDateTime': {
            'qdt:DateTimeString': reference.issueDate.replaceAll('-', ''),
            'qdt:DateTimeString@format': '102',
          },
        }
      : {}),
  };
  // Rebuilt rather than assigned: the XML follows the object's key order.
  const rebuilt: CiiNode = {};
  for (const [key, value] of Object.entries(settlement)) {
    rebuilt[key] = value;
    if (key === 'ram:SpecifiedTradeSettlementHeaderMonetarySummation') rebuilt['ram:InvoiceReferencedDocument'] = document;
  }
  transaction['ram:ApplicableHeaderTradeSettlement'] = rebuilt;
}
