/**
 * Where the business terms the e-invoice tests check sit in each syntax, as XPath 1.0 with the
 * usual prefixes (turned into local-name() tests by document-tools.ts): the CII paths follow the
 * EN 16931-3-3 binding, the UBL ones EN 16931-3-2.
 */
export interface Binding {
  /** BT-24 */
  specification: string;
  /** BT-1, BT-2 (as the syntax writes dates), BT-9, BT-10, BT-22 */
  invoiceNumber: string;
  issueDate: string;
  dueDate: string;
  buyerReference: string;
  note: string;
  /** BT-34 and its scheme, BT-49 and its scheme */
  sellerEndpoint: string;
  sellerEndpointScheme: string;
  buyerEndpoint: string;
  buyerEndpointScheme: string;
  /** BT-31, BT-32 */
  sellerVatId: string;
  sellerTaxNumber: string;
  /** BT-29, BT-30 (BR-CO-26 wants one of them or BT-31) */
  sellerIdentifier: string;
  sellerLegalRegistration: string;
  /** BG-6: BT-41, BT-42, BT-43 */
  sellerContactName: string;
  sellerContactPhone: string;
  sellerContactEmail: string;
  /** BT-37, BT-38, BT-52, BT-53 */
  sellerCity: string;
  sellerPostcode: string;
  buyerCity: string;
  buyerPostcode: string;
  /** BT-48 */
  buyerVatId: string;
  /** BT-72, BT-81, BT-83, BT-84, BT-20 */
  deliveryDate: string;
  paymentMeansCode: string;
  remittance: string;
  iban: string;
  paymentTerms: string;
  /** BG-22 */
  lineNetTotal: string;
  taxExclusive: string;
  taxTotal: string;
  grandTotal: string;
  prepaid: string;
  payable: string;
  /** BG-23, the groups; relative paths below are evaluated inside one group */
  taxGroups: string;
  groupTaxable: string;
  groupTax: string;
  groupRate: string;
  groupCategory: string;
  groupExemptionReason: string;
  /** BT-121 */
  groupExemptionReasonCode: string;
  /** BG-25, the lines; relative paths below are evaluated inside one line */
  lines: string;
  lineNet: string;
  lineQuantity: string;
  linePrice: string;
  lineCharges: string;
  lineAllowances: string;
  lineRate: string;
  lineCategory: string;
}

const H = '/rsm:CrossIndustryInvoice/rsm:SupplyChainTradeTransaction';
const AGREEMENT = `${H}/ram:ApplicableHeaderTradeAgreement`;
const SELLER = `${AGREEMENT}/ram:SellerTradeParty`;
const BUYER = `${AGREEMENT}/ram:BuyerTradeParty`;
const SETTLEMENT = `${H}/ram:ApplicableHeaderTradeSettlement`;
const SUMMATION = `${SETTLEMENT}/ram:SpecifiedTradeSettlementHeaderMonetarySummation`;
const LINE_SETTLEMENT = 'ram:SpecifiedLineTradeSettlement';

export const cii: Binding = {
  specification: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID',
  invoiceNumber: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:ID',
  issueDate: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IssueDateTime/udt:DateTimeString',
  dueDate: `${SETTLEMENT}/ram:SpecifiedTradePaymentTerms/ram:DueDateDateTime/udt:DateTimeString`,
  buyerReference: `${AGREEMENT}/ram:BuyerReference`,
  note: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:IncludedNote/ram:Content',
  sellerEndpoint: `${SELLER}/ram:URIUniversalCommunication/ram:URIID`,
  sellerEndpointScheme: `${SELLER}/ram:URIUniversalCommunication/ram:URIID/@schemeID`,
  buyerEndpoint: `${BUYER}/ram:URIUniversalCommunication/ram:URIID`,
  buyerEndpointScheme: `${BUYER}/ram:URIUniversalCommunication/ram:URIID/@schemeID`,
  sellerVatId: `${SELLER}/ram:SpecifiedTaxRegistration/ram:ID[@schemeID='VA']`,
  sellerTaxNumber: `${SELLER}/ram:SpecifiedTaxRegistration/ram:ID[@schemeID='FC']`,
  sellerIdentifier: `${SELLER}/ram:ID`,
  sellerLegalRegistration: `${SELLER}/ram:SpecifiedLegalOrganization/ram:ID`,
  sellerContactName: `${SELLER}/ram:DefinedTradeContact/ram:PersonName`,
  sellerContactPhone: `${SELLER}/ram:DefinedTradeContact/ram:TelephoneUniversalCommunication/ram:CompleteNumber`,
  sellerContactEmail: `${SELLER}/ram:DefinedTradeContact/ram:EmailURIUniversalCommunication/ram:URIID`,
  sellerCity: `${SELLER}/ram:PostalTradeAddress/ram:CityName`,
  sellerPostcode: `${SELLER}/ram:PostalTradeAddress/ram:PostcodeCode`,
  buyerCity: `${BUYER}/ram:PostalTradeAddress/ram:CityName`,
  buyerPostcode: `${BUYER}/ram:PostalTradeAddress/ram:PostcodeCode`,
  buyerVatId: `${BUYER}/ram:SpecifiedTaxRegistration/ram:ID[@schemeID='VA']`,
  deliveryDate: `${H}/ram:ApplicableHeaderTradeDelivery/ram:ActualDeliverySupplyChainEvent/ram:OccurrenceDateTime/udt:DateTimeString`,
  paymentMeansCode: `${SETTLEMENT}/ram:SpecifiedTradeSettlementPaymentMeans/ram:TypeCode`,
  remittance: `${SETTLEMENT}/ram:PaymentReference`,
  iban: `${SETTLEMENT}/ram:SpecifiedTradeSettlementPaymentMeans/ram:PayeePartyCreditorFinancialAccount/ram:IBANID`,
  paymentTerms: `${SETTLEMENT}/ram:SpecifiedTradePaymentTerms/ram:Description`,
  lineNetTotal: `${SUMMATION}/ram:LineTotalAmount`,
  taxExclusive: `${SUMMATION}/ram:TaxBasisTotalAmount`,
  taxTotal: `${SUMMATION}/ram:TaxTotalAmount`,
  grandTotal: `${SUMMATION}/ram:GrandTotalAmount`,
  prepaid: `${SUMMATION}/ram:TotalPrepaidAmount`,
  payable: `${SUMMATION}/ram:DuePayableAmount`,
  taxGroups: `${SETTLEMENT}/ram:ApplicableTradeTax`,
  groupTaxable: 'ram:BasisAmount',
  groupTax: 'ram:CalculatedAmount',
  groupRate: 'ram:RateApplicablePercent',
  groupCategory: 'ram:CategoryCode',
  groupExemptionReason: 'ram:ExemptionReason',
  groupExemptionReasonCode: 'ram:ExemptionReasonCode',
  lines: `${H}/ram:IncludedSupplyChainTradeLineItem`,
  lineNet: `${LINE_SETTLEMENT}/ram:SpecifiedTradeSettlementLineMonetarySummation/ram:LineTotalAmount`,
  lineQuantity: 'ram:SpecifiedLineTradeDelivery/ram:BilledQuantity',
  linePrice: 'ram:SpecifiedLineTradeAgreement/ram:NetPriceProductTradePrice/ram:ChargeAmount',
  lineCharges: `${LINE_SETTLEMENT}/ram:SpecifiedTradeAllowanceCharge[ram:ChargeIndicator/udt:Indicator='true']/ram:ActualAmount`,
  lineAllowances: `${LINE_SETTLEMENT}/ram:SpecifiedTradeAllowanceCharge[ram:ChargeIndicator/udt:Indicator='false']/ram:ActualAmount`,
  lineRate: `${LINE_SETTLEMENT}/ram:ApplicableTradeTax/ram:RateApplicablePercent`,
  lineCategory: `${LINE_SETTLEMENT}/ram:ApplicableTradeTax/ram:CategoryCode`,
};

const INV = '/ubl:Invoice';
const U_SELLER = `${INV}/cac:AccountingSupplierParty/cac:Party`;
const U_BUYER = `${INV}/cac:AccountingCustomerParty/cac:Party`;
const TOTALS = `${INV}/cac:LegalMonetaryTotal`;

export const ubl: Binding = {
  specification: `${INV}/cbc:CustomizationID`,
  invoiceNumber: `${INV}/cbc:ID`,
  issueDate: `${INV}/cbc:IssueDate`,
  dueDate: `${INV}/cbc:DueDate`,
  buyerReference: `${INV}/cbc:BuyerReference`,
  note: `${INV}/cbc:Note`,
  sellerEndpoint: `${U_SELLER}/cbc:EndpointID`,
  sellerEndpointScheme: `${U_SELLER}/cbc:EndpointID/@schemeID`,
  buyerEndpoint: `${U_BUYER}/cbc:EndpointID`,
  buyerEndpointScheme: `${U_BUYER}/cbc:EndpointID/@schemeID`,
  sellerVatId: `${U_SELLER}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID`,
  sellerTaxNumber: `${U_SELLER}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID!='VAT']/cbc:CompanyID`,
  sellerIdentifier: `${U_SELLER}/cac:PartyIdentification/cbc:ID`,
  sellerLegalRegistration: `${U_SELLER}/cac:PartyLegalEntity/cbc:CompanyID`,
  sellerContactName: `${U_SELLER}/cac:Contact/cbc:Name`,
  sellerContactPhone: `${U_SELLER}/cac:Contact/cbc:Telephone`,
  sellerContactEmail: `${U_SELLER}/cac:Contact/cbc:ElectronicMail`,
  sellerCity: `${U_SELLER}/cac:PostalAddress/cbc:CityName`,
  sellerPostcode: `${U_SELLER}/cac:PostalAddress/cbc:PostalZone`,
  buyerCity: `${U_BUYER}/cac:PostalAddress/cbc:CityName`,
  buyerPostcode: `${U_BUYER}/cac:PostalAddress/cbc:PostalZone`,
  buyerVatId: `${U_BUYER}/cac:PartyTaxScheme[cac:TaxScheme/cbc:ID='VAT']/cbc:CompanyID`,
  deliveryDate: `${INV}/cac:Delivery/cbc:ActualDeliveryDate`,
  paymentMeansCode: `${INV}/cac:PaymentMeans/cbc:PaymentMeansCode`,
  remittance: `${INV}/cac:PaymentMeans/cbc:PaymentID`,
  iban: `${INV}/cac:PaymentMeans/cac:PayeeFinancialAccount/cbc:ID`,
  paymentTerms: `${INV}/cac:PaymentTerms/cbc:Note`,
  lineNetTotal: `${TOTALS}/cbc:LineExtensionAmount`,
  taxExclusive: `${TOTALS}/cbc:TaxExclusiveAmount`,
  taxTotal: `${INV}/cac:TaxTotal/cbc:TaxAmount`,
  grandTotal: `${TOTALS}/cbc:TaxInclusiveAmount`,
  prepaid: `${TOTALS}/cbc:PrepaidAmount`,
  payable: `${TOTALS}/cbc:PayableAmount`,
  taxGroups: `${INV}/cac:TaxTotal/cac:TaxSubtotal`,
  groupTaxable: 'cbc:TaxableAmount',
  groupTax: 'cbc:TaxAmount',
  groupRate: 'cac:TaxCategory/cbc:Percent',
  groupCategory: 'cac:TaxCategory/cbc:ID',
  groupExemptionReason: 'cac:TaxCategory/cbc:TaxExemptionReason',
  groupExemptionReasonCode: 'cac:TaxCategory/cbc:TaxExemptionReasonCode',
  lines: `${INV}/cac:InvoiceLine`,
  lineNet: 'cbc:LineExtensionAmount',
  lineQuantity: 'cbc:InvoicedQuantity',
  linePrice: 'cac:Price/cbc:PriceAmount',
  lineCharges: "cac:AllowanceCharge[cbc:ChargeIndicator='true']/cbc:Amount",
  lineAllowances: "cac:AllowanceCharge[cbc:ChargeIndicator='false']/cbc:Amount",
  lineRate: 'cac:Item/cac:ClassifiedTaxCategory/cbc:Percent',
  lineCategory: 'cac:Item/cac:ClassifiedTaxCategory/cbc:ID',
};

/** A credit note's own terms: BT-3 (type code) and BG-3 (the preceding invoice: BT-25, BT-26). */
export interface CreditNoteBinding {
  typeCode: string;
  precedingNumber: string;
  precedingDate: string;
}

export const ciiCreditNote: CreditNoteBinding = {
  typeCode: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:TypeCode',
  precedingNumber: `${SETTLEMENT}/ram:InvoiceReferencedDocument/ram:IssuerAssignedID`,
  precedingDate: `${SETTLEMENT}/ram:InvoiceReferencedDocument/ram:FormattedIssueDateTime/qdt:DateTimeString`,
};

/** UBL writes a 381 as a CreditNote document: its root, lines and quantities are named so. */
export const ublCreditNote: CreditNoteBinding = {
  typeCode: '/ubl:CreditNote/cbc:CreditNoteTypeCode',
  precedingNumber: '/ubl:CreditNote/cac:BillingReference/cac:InvoiceDocumentReference/cbc:ID',
  precedingDate: '/ubl:CreditNote/cac:BillingReference/cac:InvoiceDocumentReference/cbc:IssueDate',
};

/** The UBL binding of the invoice's terms in a CreditNote document (it has no cbc:DueDate: BT-9 is left out). */
export const ublOfCreditNote: Binding = Object.fromEntries(
  Object.entries(ubl).map(([term, path]) => [
    term,
    path
      .replaceAll('/ubl:Invoice', '/ubl:CreditNote')
      .replaceAll('cac:InvoiceLine', 'cac:CreditNoteLine')
      .replaceAll('cbc:InvoicedQuantity', 'cbc:CreditedQuantity'),
  ]),
) as unknown as Binding;
