/**
 * The EU customs area, by ISO 3166-1 alpha-2 country: the 27 member states, and Monaco (in the
 * Union's customs territory through France). Sendcloud's v3 announce needs customs information
 * and parcel items for "a destination country outside the EU" (Sendcloud API v3 OpenAPI
 * description, shipments: "International shipments", Apache 2.0), which this table decides.
 * Territories outside the customs union inside member states (the Canary Islands, Åland, Mount
 * Athos…) share their country's code and cannot be told apart here; Sendcloud judges those itself.
 */
export const EU_CUSTOMS_AREA: ReadonlySet<string> = new Set([
  'AT', 'BE', 'BG', 'CY', 'CZ', 'DE', 'DK', 'EE', 'ES', 'FI', 'FR', 'GR', 'HR', 'HU', 'IE', 'IT', 'LT', 'LU', 'LV', 'MT', 'NL', 'PL', 'PT',
  'RO', 'SE', 'SI', 'SK', 'MC',
]); // prettier-ignore

/** Whether a parcel to `country` leaves the EU customs area (and so needs customs information at Sendcloud). */
export const needsCustoms = (country: string): boolean => !EU_CUSTOMS_AREA.has(country.toUpperCase());
