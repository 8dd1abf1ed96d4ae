/**
 * Stands in for `brotli/decompress.js` inside Lambda bundles (esbuild alias in infra/bundling.ts).
 * fontkit imports it to read WOFF2 fonts; the invoice PDF embeds TrueType fonts only
 * (shared/invoices/rendering/fonts.ts), so the 475 KiB decoder would never run. Should a WOFF2
 * font ever be embedded, this says so instead of producing a broken PDF.
 */
export default function decompress(): never {
  throw new Error('WOFF2 fonts are not supported in Lambda bundles: embed a TrueType (.ttf) font');
}
