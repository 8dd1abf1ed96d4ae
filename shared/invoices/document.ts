/**
 * What an issued invoice's documents (the PDF, the e-invoice XML, the email) are made from: a
 * plain, frozen description of one invoice version. The invoice service builds it from the stored
 * invoice; the renderers (shared/invoices/rendering/) never read the database.
 *
 * Money is in integer minor units (hundredths), like everywhere inside the service.
 */

import type { AppliedTaxCategory } from '#shared/tax/categories';

/** A postal address as printed and as the e-invoice's BG-5/BG-8 groups need it. */
export interface DocumentAddress {
  name: string;
  company: string | null;
  line1: string;
  line2: string | null;
  postal_code: string;
  city: string;
  region: string | null;
  /** ISO 3166-1 alpha-2, upper case. */
  country: string;
}

/** The seller block, as snapshotted onto the invoice at issue time. */
export interface DocumentSeller {
  legal_name: string;
  address: DocumentAddress;
  /** VAT identification number (BT-31), e.g. DE123456789. At least one of vat_id / tax_number is set. */
  vat_id: string | null;
  /** National tax number (BT-32, "Steuernummer"). */
  tax_number: string | null;
  iban: string | null;
  bic: string | null;
  email: string;
  phone: string | null;
  /** Days between issue and due date (the terms printed). */
  payment_terms_days: number;
  /** Free text printed at the foot of every page. */
  footer: string | null;
}

export interface DocumentBuyer {
  /** The customer's id in this service (the e-invoice's buyer identifier). */
  id: number;
  name: string;
  email: string;
  company: string | null;
  vat_id: string | null;
  /** Leitweg-ID or other buyer reference (BT-10); XRechnung requires one, the invoice number stands in when unset. */
  buyer_reference: string | null;
  /** The billing address; null only for invoices of customers without one (the PDF prints name and email). */
  address: DocumentAddress | null;
}

export interface DocumentLine {
  /** 1, 2, … */
  position: number;
  description: string;
  quantity: number;
  /** Net unit price, minor units. */
  unit_price: number;
  /** The applied tax category: the e-invoice's VAT category code follows from it and the rate (vatCategoryCode). */
  tax_category: AppliedTaxCategory;
  /** Percent, e.g. 19 or 7 or 0. */
  tax_rate: number;
  /** Why an exempt line is exempt (BT-120); null for other categories. */
  exemption_reason: string | null;
  /** Net line amount: quantity × unit_price (+ setup fee for order lines), rounded half-up, minor units. */
  net_amount: number;
}

export interface DocumentTaxGroup {
  /** The applied category of the group (one group per category and rate). */
  category: AppliedTaxCategory;
  /** Percent. */
  tax_rate: number;
  /** Sum of the net amounts at this rate (shipping included), minor units. */
  taxable_amount: number;
  /** taxable_amount × rate, rounded half-up once per rate, minor units. */
  tax_amount: number;
}

/** The invoice a credit note corrects (BG-3). */
export interface PrecedingInvoice {
  /** BT-25. */
  number: string;
  /** BT-26, YYYY-MM-DD. */
  issue_date: string;
}

/**
 * An invoice, or a credit note (the same document with type code 381, a reference to the invoice it
 * corrects and positive amounts, as EN 16931 wants for 381: what is credited, not negated).
 */
export interface InvoiceDocument {
  /** UNTDID 1001 (BT-3): 380 commercial invoice, 381 credit note. */
  type_code: '380' | '381';
  /** BT-1: the invoice number, or the credit note's own number. */
  invoice_number: string;
  /** A credit note's corrected invoice (BT-25, BT-26); null for an invoice. */
  preceding_invoice: PrecedingInvoice | null;
  /** Test-mode invoices carry a visible TEST watermark and say so in the e-invoice note. */
  test_mode: boolean;
  /** ISO 4217, e.g. EUR. */
  currency: string;
  /** YYYY-MM-DD. */
  issue_date: string;
  /** YYYY-MM-DD. */
  due_date: string;
  /** YYYY-MM-DD: delivery / service date (BT-72); the issue date when nothing better is known. */
  service_date: string;
  /** The order number when the invoice was made from an order (BT-13 purchase order reference stays empty). */
  order_number: string | null;
  seller: DocumentSeller;
  buyer: DocumentBuyer;
  lines: DocumentLine[];
  /** Shipping charge (net, minor units) at `shipping_tax_rate`; 0 when none. Printed and exported as its own line. */
  shipping: number;
  shipping_tax_category: AppliedTaxCategory;
  shipping_tax_rate: number;
  /** Sum of line net amounts + shipping, minor units. */
  subtotal: number;
  tax_breakdown: DocumentTaxGroup[];
  /** Sum of the breakdown's tax amounts. */
  tax: number;
  /** subtotal + tax. */
  total: number;
  /** Paid before the document is made (BT-113): 0 for the invoice as issued, the amount paid for a paid or partly paid one. */
  amount_paid: number;
  /** total − amount_paid (BT-115, BR-CO-16). */
  amount_due: number;
  notes: string | null;
}
