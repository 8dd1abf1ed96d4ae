/**
 * `InvoiceDocument` → the internal invoice format of @e-invoice-eu/core (UBL-shaped JSON, from
 * which the library writes UBL or CII). Pure, so the mapping is tested without rendering.
 *
 * Business terms (BT-…) are those of EN 16931; rules (BR-…) are EN 16931's, BR-DE-… XRechnung's.
 */
import type { Invoice } from '@e-invoice-eu/core';
import type { DocumentAddress, DocumentLine, InvoiceDocument } from '#shared/invoices/document';
import { formatMinor } from '#shared/money';
import { taxOn } from '#shared/pricing/tax';
import { lineAdjustment } from './line-adjustment';
import { vatCategoryCode, type AppliedTaxCategory } from '#shared/tax/categories';
import { legalNotes, taxCategory, type TaxCategory } from './tax-category';

type UblInvoice = Invoice['ubl:Invoice'];
type Currency = UblInvoice['cbc:DocumentCurrencyCode'];
type Country = UblInvoice['cac:AccountingSupplierParty']['cac:Party']['cac:PostalAddress']['cac:Country']['cbc:IdentificationCode'];
type InvoiceLine = UblInvoice['cac:InvoiceLine'][number];
type PostalAddress = UblInvoice['cac:AccountingSupplierParty']['cac:Party']['cac:PostalAddress'];
type SellerTaxSchemes = NonNullable<UblInvoice['cac:AccountingSupplierParty']['cac:Party']['cac:PartyTaxScheme']>;

/** UN/ECE Rec 20 "one": the document has no units of measure, every quantity is a count. */
const UNIT_CODE = 'C62';
/** How far (minor units) a credit note's tax per rate may stray from taxable × rate (see reconciliationErrors). */
export const CREDIT_NOTE_TAX_TOLERANCE = 2;
export const TEST_MODE_NOTE = 'TEST INVOICE: issued in test mode. This is not a valid invoice; do not pay.';

/**
 * Checks the amounts against the EN 16931 calculation rules before anything is written: the
 * document is the single source of the figures, and an e-invoice that does not add up is
 * rejected by the receiving platform, long after the invoice was issued.
 */
export function reconciliationErrors(doc: InvoiceDocument): string[] {
  const errors: string[] = [];
  const lineSum = doc.lines.reduce((sum, line) => sum + line.net_amount, 0) + doc.shipping;
  if (lineSum !== doc.subtotal) errors.push(`BR-CO-10/13: lines + shipping ${lineSum} ≠ subtotal ${doc.subtotal}`);
  const taxSum = doc.tax_breakdown.reduce((sum, group) => sum + group.tax_amount, 0);
  if (taxSum !== doc.tax) errors.push(`BR-CO-14: tax breakdown ${taxSum} ≠ tax ${doc.tax}`);
  if (doc.subtotal + doc.tax !== doc.total) errors.push(`BR-CO-15: subtotal + tax ≠ total ${doc.total}`);
  if (doc.total - doc.amount_paid !== doc.amount_due) errors.push(`BR-CO-16: total − paid ≠ amount due ${doc.amount_due}`);
  // One breakdown group per VAT category code and rate (BT-118, BT-119), lines and shipping included.
  const taxable = new Map<string, number>();
  for (const line of [...doc.lines, ...(doc.shipping > 0 ? [shippingLine(doc)] : [])]) {
    const key = groupKey(line.tax_category, line.tax_rate);
    taxable.set(key, (taxable.get(key) ?? 0) + line.net_amount);
    const { code } = taxCategory(line.tax_category, line.tax_rate);
    if (code === 'S' ? line.tax_rate <= 0 : line.tax_rate !== 0) errors.push(`BR-${code}-05: line ${line.position} at ${line.tax_rate} %`);
  }
  const groups = vatGroups(doc);
  for (const key of taxable.keys()) if (!groups.has(key)) errors.push(`BR-${key.split(':')[0]}-01: no tax breakdown group for ${key}`);
  for (const [key, group] of groups) {
    const { code } = group.category;
    const expected = taxable.get(key) ?? 0;
    if (group.taxable_amount !== expected)
      errors.push(`BR-${code}-08: taxable at ${group.tax_rate} % is ${expected}, not ${group.taxable_amount}`);
    const tax = code === 'S' ? taxOn(group.taxable_amount, group.tax_rate) : 0;
    // A credit note's tax is the invoice's in proportion (shared/credit-notes/credit.ts): within a
    // cent or two of taxable × rate, inside the tolerance of BR-S-09 and BR-CO-17 (±1.00).
    const tolerance = doc.type_code === '381' && code === 'S' ? CREDIT_NOTE_TAX_TOLERANCE : 0;
    if (Math.abs(group.tax_amount - tax) > tolerance)
      errors.push(`BR-${code}-09: tax at ${group.tax_rate} % is ${tax}, not ${group.tax_amount}`);
  }
  const codes = new Set([...groups.values()].map((group) => group.category.code));
  if ((codes.has('S') || codes.has('Z') || codes.has('E')) && !doc.seller.vat_id && !doc.seller.tax_number)
    errors.push("BR-S-02/BR-Z-02/BR-E-02: the seller's VAT ID or tax number is missing");
  if (codes.has('AE') && (!doc.seller.vat_id || !doc.buyer.vat_id))
    errors.push("BR-AE-02: a reverse charge needs the seller's and the buyer's VAT ID");
  if (codes.has('G') && !doc.seller.vat_id) errors.push("BR-G-02: an export needs the seller's VAT ID");
  return errors;
}

function postalAddress(address: DocumentAddress): PostalAddress {
  return {
    'cbc:StreetName': address.line1,
    ...(address.line2 ? { 'cbc:AdditionalStreetName': address.line2 } : {}),
    'cbc:CityName': address.city,
    'cbc:PostalZone': address.postal_code,
    ...(address.region ? { 'cbc:CountrySubentity': address.region } : {}),
    'cac:Country': { 'cbc:IdentificationCode': address.country as Country },
  };
}

/** The key of a VAT breakdown group: its category code and rate. */
const groupKey = (category: AppliedTaxCategory, rate: number): string => `${vatCategoryCode(category, rate)}:${rate}`;

interface VatGroup {
  category: TaxCategory;
  tax_rate: number;
  taxable_amount: number;
  tax_amount: number;
}

/**
 * The document's breakdown as EN 16931 groups it, one group per VAT category code and rate (two
 * applied categories with one code — zero-rated and a reduced rate of 0 % — are one Z group), each
 * with its exemption reason: an E group's the reasons of its lines (BR-E-10), AE's and G's their
 * VATEX code and legal text (BR-AE-10, BR-G-10).
 */
function vatGroups(doc: InvoiceDocument): Map<string, VatGroup> {
  const reasons = new Map<string, Set<string>>();
  for (const line of doc.lines) {
    if (!line.exemption_reason) continue;
    const key = groupKey(line.tax_category, line.tax_rate);
    reasons.set(key, (reasons.get(key) ?? new Set()).add(line.exemption_reason));
  }
  const groups = new Map<string, VatGroup>();
  for (const entry of doc.tax_breakdown) {
    const key = groupKey(entry.category, entry.tax_rate);
    const reason = [...(reasons.get(key) ?? [])].join('; ') || null;
    const group = groups.get(key) ?? {
      category: taxCategory(entry.category, entry.tax_rate, reason),
      tax_rate: entry.tax_rate,
      taxable_amount: 0,
      tax_amount: 0,
    };
    group.taxable_amount += entry.taxable_amount;
    group.tax_amount += entry.tax_amount;
    groups.set(key, group);
  }
  return groups;
}

function invoiceLine(line: DocumentLine, currency: Currency): InvoiceLine {
  const { code } = taxCategory(line.tax_category, line.tax_rate);
  const adjustment = lineAdjustment(line);
  return {
    'cbc:ID': String(line.position),
    'cbc:InvoicedQuantity': String(line.quantity),
    'cbc:InvoicedQuantity@unitCode': UNIT_CODE,
    'cbc:LineExtensionAmount': formatMinor(line.net_amount),
    'cbc:LineExtensionAmount@currencyID': currency,
    ...(adjustment !== 0
      ? {
          'cac:AllowanceCharge': [
            {
              'cbc:ChargeIndicator': adjustment > 0 ? 'true' : 'false',
              'cbc:AllowanceChargeReason': adjustment > 0 ? 'Setup fee' : 'Discount',
              'cbc:Amount': formatMinor(Math.abs(adjustment)),
              'cbc:Amount@currencyID': currency,
            },
          ],
        }
      : {}),
    'cac:Item': {
      'cbc:Name': line.description,
      'cac:ClassifiedTaxCategory': { 'cbc:ID': code, 'cbc:Percent': String(line.tax_rate), 'cac:TaxScheme': { 'cbc:ID': 'VAT' } },
    },
    'cac:Price': { 'cbc:PriceAmount': formatMinor(line.unit_price), 'cbc:PriceAmount@currencyID': currency },
  };
}

/** Shipping is printed and exported as a line of its own (not a document-level charge), after the last line. */
function shippingLine(doc: InvoiceDocument): DocumentLine {
  const position = doc.lines.reduce((last, line) => Math.max(last, line.position), 0) + 1;
  return {
    position,
    description: 'Shipping',
    quantity: 1,
    unit_price: doc.shipping,
    tax_category: doc.shipping_tax_category,
    tax_rate: doc.shipping_tax_rate,
    exemption_reason: null,
    net_amount: doc.shipping,
  };
}

function paymentTerms(doc: InvoiceDocument): string {
  if (doc.preceding_invoice) {
    const { number, issue_date } = doc.preceding_invoice;
    return `Credited against invoice ${number} of ${issue_date}: reduces the amount due on it; what was paid beyond the amount owed is refunded.`;
  }
  if (doc.amount_due <= 0) return 'Paid in full.';
  return `Payable without deduction within ${doc.seller.payment_terms_days} days, by ${doc.due_date}.`;
}

export function toEInvoice(doc: InvoiceDocument): Invoice {
  const errors = reconciliationErrors(doc);
  if (errors.length) throw new RangeError(`Invoice ${doc.invoice_number} does not reconcile: ${errors.join('; ')}`);
  const currency = doc.currency as Currency;
  const { seller, buyer } = doc;

  const sellerTaxSchemes = [
    ...(seller.vat_id ? [{ 'cbc:CompanyID': seller.vat_id, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } }] : []),
    // BT-32, the national tax number: "FC" is the scheme CII expects for it (the library maps VAT to "VA").
    ...(seller.tax_number ? [{ 'cbc:CompanyID': seller.tax_number, 'cac:TaxScheme': { 'cbc:ID': 'FC' } }] : []),
  ] as SellerTaxSchemes;
  const lines = [...doc.lines, ...(doc.shipping > 0 ? [shippingLine(doc)] : [])].map((line) => invoiceLine(line, currency));
  // One note (BT-22) holding both texts: the library writes several UBL notes into one CII
  // IncludedNote with several Content elements, which the CII schema does not allow.
  // The legal note of a reverse charge or an export sale (Article 226 (11) / (11a) of the VAT Directive) is part of it.
  const legal = legalNotes([...doc.lines.map((line) => line.tax_category), ...(doc.shipping > 0 ? [doc.shipping_tax_category] : [])]);
  const note = [...(doc.test_mode ? [TEST_MODE_NOTE] : []), ...legal, ...(doc.notes ? [doc.notes] : [])].join('\n\n');

  return {
    'ubl:Invoice': {
      'cbc:ID': doc.invoice_number,
      'cbc:IssueDate': doc.issue_date,
      'cbc:DueDate': doc.due_date,
      'cbc:InvoiceTypeCode': doc.type_code, // 380 commercial invoice, 381 credit note (BT-3)
      ...(note ? { 'cbc:Note': [note] } : {}),
      'cbc:DocumentCurrencyCode': currency,
      // BT-10 is mandatory in XRechnung (BR-DE-15); without a Leitweg-ID the invoice number is the reference.
      'cbc:BuyerReference': buyer.buyer_reference ?? doc.invoice_number,
      // BG-3: the invoice a credit note corrects, its number (BT-25) and issue date (BT-26).
      ...(doc.preceding_invoice
        ? {
            'cac:BillingReference': [
              {
                'cac:InvoiceDocumentReference': {
                  'cbc:ID': doc.preceding_invoice.number,
                  'cbc:IssueDate': doc.preceding_invoice.issue_date,
                },
              },
            ],
          }
        : {}),
      // BT-14, sales order reference; the library sets the mandatory UBL cbc:ID (BT-13) to "NA".
      ...(doc.order_number ? { 'cac:OrderReference': { 'cbc:SalesOrderID': doc.order_number } } : {}),
      'cac:AccountingSupplierParty': {
        'cac:Party': {
          'cbc:EndpointID': seller.email,
          'cbc:EndpointID@schemeID': 'EM',
          // BR-CO-26 wants BT-29, BT-30 or BT-31: without a VAT ID the tax number identifies the seller.
          ...(seller.vat_id ? {} : { 'cac:PartyIdentification': [{ 'cbc:ID': seller.tax_number ?? seller.legal_name }] }),
          'cac:PostalAddress': postalAddress(seller.address),
          'cac:PartyTaxScheme': sellerTaxSchemes,
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': seller.legal_name },
          // BG-6 with name, phone and email is mandatory in XRechnung (BR-DE-2, -5, -6, -7).
          'cac:Contact': {
            'cbc:Name': seller.legal_name,
            ...(seller.phone ? { 'cbc:Telephone': seller.phone } : {}),
            'cbc:ElectronicMail': seller.email,
          },
        },
      },
      'cac:AccountingCustomerParty': {
        'cac:Party': {
          'cbc:EndpointID': buyer.email,
          'cbc:EndpointID@schemeID': 'EM',
          'cac:PartyIdentification': { 'cbc:ID': String(buyer.id) },
          // BG-8 needs at least the country (BR-11); without a billing address the seller's is assumed.
          'cac:PostalAddress': buyer.address
            ? postalAddress(buyer.address)
            : { 'cac:Country': { 'cbc:IdentificationCode': seller.address.country as Country } },
          ...(buyer.vat_id ? { 'cac:PartyTaxScheme': { 'cbc:CompanyID': buyer.vat_id, 'cac:TaxScheme': { 'cbc:ID': 'VAT' } } } : {}),
          'cac:PartyLegalEntity': { 'cbc:RegistrationName': buyer.company ?? buyer.name },
          'cac:Contact': { 'cbc:Name': buyer.name, 'cbc:ElectronicMail': buyer.email },
        },
      },
      'cac:Delivery': { 'cbc:ActualDeliveryDate': doc.service_date },
      'cac:PaymentMeans': [
        // A credit note is paid by the seller (a refund or a set-off): the seller's account is not where the money goes.
        seller.iban && doc.type_code === '380'
          ? {
              'cbc:PaymentMeansCode': '58', // SEPA credit transfer
              'cbc:PaymentID': doc.invoice_number,
              'cac:PayeeFinancialAccount': {
                'cbc:ID': seller.iban.replace(/\s+/g, ''),
                'cbc:Name': seller.legal_name,
                ...(seller.bic ? { 'cac:FinancialInstitutionBranch': { 'cbc:ID': seller.bic } } : {}),
              },
            }
          : // "Instrument not defined": 30/58 would require an account (BR-61) the seller has not given.
            { 'cbc:PaymentMeansCode': '1', 'cbc:PaymentID': doc.invoice_number },
      ],
      'cac:PaymentTerms': { 'cbc:Note': paymentTerms(doc) },
      'cac:TaxTotal': [
        {
          'cbc:TaxAmount': formatMinor(doc.tax),
          'cbc:TaxAmount@currencyID': currency,
          'cac:TaxSubtotal': [...vatGroups(doc).values()].map((group) => {
            const { category } = group;
            return {
              'cbc:TaxableAmount': formatMinor(group.taxable_amount),
              'cbc:TaxableAmount@currencyID': currency,
              'cbc:TaxAmount': formatMinor(group.tax_amount),
              'cbc:TaxAmount@currencyID': currency,
              'cac:TaxCategory': {
                'cbc:ID': category.code,
                'cbc:Percent': String(group.tax_rate),
                ...(category.exemptionReasonCode ? { 'cbc:TaxExemptionReasonCode': category.exemptionReasonCode } : {}),
                ...(category.exemptionReason ? { 'cbc:TaxExemptionReason': category.exemptionReason } : {}),
                'cac:TaxScheme': { 'cbc:ID': 'VAT' },
              },
            };
          }),
        },
      ],
      'cac:LegalMonetaryTotal': {
        'cbc:LineExtensionAmount': formatMinor(doc.subtotal),
        'cbc:LineExtensionAmount@currencyID': currency,
        'cbc:TaxExclusiveAmount': formatMinor(doc.subtotal),
        'cbc:TaxExclusiveAmount@currencyID': currency,
        'cbc:TaxInclusiveAmount': formatMinor(doc.total),
        'cbc:TaxInclusiveAmount@currencyID': currency,
        ...(doc.amount_paid > 0 ? { 'cbc:PrepaidAmount': formatMinor(doc.amount_paid), 'cbc:PrepaidAmount@currencyID': currency } : {}),
        'cbc:PayableAmount': formatMinor(doc.amount_due),
        'cbc:PayableAmount@currencyID': currency,
      },
      'cac:InvoiceLine': lines as UblInvoice['cac:InvoiceLine'],
    },
  };
}
