/**
 * Line allowances and charges (BG-27/BG-28: the setup fee of an order line) in the CII syntax.
 * UBL requires `currencyID` on `cbc:Amount`; @e-invoice-eu/core (2.3.x) copies it onto CII's
 * line-level `ram:ActualAmount`, where the CII rules of EN 16931 forbid it (CII-DT-031:
 * "currencyID should not be present"), so every CII and Factur-X XML of an invoice with a setup
 * fee failed the official validation. Only the document-level amounts that name a currency in
 * CII (the tax totals) may carry it; line amounts never do.
 */
type CiiNode = Record<string, unknown>;

const asList = (value: unknown): CiiNode[] =>
  (Array.isArray(value) ? value : value === undefined ? [] : [value]).filter(
    (entry): entry is CiiNode => typeof entry === 'object' && entry !== null,
  );

/** Drops `currencyID` from every line allowance/charge amount of the CII tree the library built. */
export function withoutLineChargeCurrency(cii: CiiNode): void {
  const transaction = asList((cii['rsm:CrossIndustryInvoice'] as CiiNode | undefined)?.['rsm:SupplyChainTradeTransaction'])[0];
  for (const line of asList(transaction?.['ram:IncludedSupplyChainTradeLineItem'])) {
    for (const settlement of asList(line['ram:SpecifiedLineTradeSettlement'])) {
      for (const charge of asList(settlement['ram:SpecifiedTradeAllowanceCharge'])) delete charge['ram:ActualAmount@currencyID'];
    }
  }
}
