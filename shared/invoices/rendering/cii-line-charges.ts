/**
 * Line allowances and charges in the CII syntax (a setup fee is a line charge): @e-invoice-eu/core
 * (2.3.x) copies UBL's mandatory `cbc:Amount@currencyID` onto CII's `ram:ActualAmount`, which the
 * EN 16931 CII rules forbid there (CII-DT-031, "currencyID should not be present", fatal). The
 * attribute is dropped from every line's `ram:SpecifiedTradeAllowanceCharge` amounts; the
 * document currency (BT-5) says what they are in. Applied by the CII step's wrapper
 * (cii-seller-identifier.ts).
 */
type CiiNode = Record<string, unknown>;

const list = (value: unknown): CiiNode[] =>
  Array.isArray(value) ? (value as CiiNode[]) : typeof value === 'object' && value !== null ? [value as CiiNode] : [];

export function withoutLineChargeCurrency(cii: CiiNode): void {
  const transaction = (cii['rsm:CrossIndustryInvoice'] as CiiNode | undefined)?.['rsm:SupplyChainTradeTransaction'] as CiiNode | undefined;
  for (const line of list(transaction?.['ram:IncludedSupplyChainTradeLineItem'])) {
    const settlement = line['ram:SpecifiedLineTradeSettlement'] as CiiNode | undefined;
    for (const charge of list(settlement?.['ram:SpecifiedTradeAllowanceCharge'])) {
      delete charge['ram:ActualAmount@currencyID'];
      delete charge['ram:BasisAmount@currencyID'];
    }
  }
}
