/**
 * Customs of a shipment leaving the EU customs area (docs/shipping.md#customs) — pure:
 *
 * - `customsDeclarationOf`: what the shipment declares — the invoice number (the order's invoice's
 *   when it has one, else the order number), the export reason (`commercial_goods`: the shop sells
 *   what it ships), the export type (`commercial_b2b` to an address with a company, else
 *   `commercial_b2c`) and one item per order line it carries: the quantity shipped, the line's
 *   value per piece (its total over its quantity, so a setup fee or a legacy run's price is
 *   declared too), its HS code, origin country and description. A line without an HS code or an
 *   origin country is a 422 naming the line, before anything is reserved or sent.
 * - `parcelContents`: which parcel carries which pieces, for carriers that declare items per parcel
 *   (Sendcloud's `parcel_items`): the pieces in line order, split as evenly as the parcels allow,
 *   each piece weighing its parcel's weight over the pieces in it.
 *
 * Whether a destination needs customs is one table: carriers/customs-area.ts.
 */
import { ValidationError, type ErrorDetail } from '#shared/errors';
import type { OrderRecord } from '#shared/orders/stored';
import type { CustomsDeclaration, CustomsItem, ParcelInput } from './carriers/carrier';
import { needsCustoms } from './carriers/customs-area';
import type { ShipmentRecord } from './stored';

/** Sendcloud's parcel item `description` takes at most 255 characters (as does our `customs_description`). */
export const MAX_CUSTOMS_DESCRIPTION = 255;

const clip = (text: string) => (text.length > MAX_CUSTOMS_DESCRIPTION ? `${text.slice(0, MAX_CUSTOMS_DESCRIPTION - 1)}…` : text);

/** A line's value per piece in minor units, rounded half-up (its total over its quantity). */
export const unitValueOf = (line: Pick<OrderRecord['items'][number], 'total' | 'quantity'>): number =>
  Math.floor((line.total * 2 + line.quantity) / (line.quantity * 2));

/**
 * The customs declaration of a shipment to `shipment.address`, or null inside the EU customs area.
 * Throws a 422 naming every line the shipment carries that lacks an HS code or an origin country.
 */
export function customsDeclarationOf(
  order: Pick<OrderRecord, 'order_number' | 'currency' | 'items'>,
  shipment: Pick<ShipmentRecord, 'items' | 'address'>,
  invoiceNumber: string | null,
): CustomsDeclaration | null {
  if (!needsCustoms(shipment.address.country)) return null;
  const problems: ErrorDetail[] = [];
  const items: CustomsItem[] = [];
  for (const shipped of shipment.items) {
    const line = order.items.find((candidate) => candidate.id === shipped.line_id);
    if (!line) continue; // cannot happen: the shipment's items name the order's lines
    const name = `line ${line.id} (${line.description.slice(0, 60)})`;
    if (!line.hs_code) {
      problems.push({
        field: `items.${line.id}.hs_code`,
        message: `${name} has no hs_code: a shipment to ${shipment.address.country} leaves the EU customs area and declares each line's HS code — set it on the product or the order line`,
      });
    }
    if (!line.origin_country) {
      problems.push({
        field: `items.${line.id}.origin_country`,
        message: `${name} has no origin_country: a shipment to ${shipment.address.country} leaves the EU customs area and declares where each line's goods were made`,
      });
    }
    if (!line.hs_code || !line.origin_country) continue;
    items.push({
      line_id: line.id,
      description: clip(line.customs_description ?? line.description),
      quantity: shipped.quantity,
      unit_value: unitValueOf(line),
      hs_code: line.hs_code,
      origin_country: line.origin_country,
    });
  }
  if (problems.length) {
    throw new ValidationError(`Order ${order.order_number} lacks the customs data a shipment outside the EU customs area needs`, problems);
  }
  return {
    invoice_number: (invoiceNumber ?? order.order_number).slice(0, 40),
    export_reason: 'commercial_goods',
    export_type: shipment.address.company ? 'commercial_b2b' : 'commercial_b2c',
    currency: order.currency,
    items,
  };
}

/** One parcel's share of the declared items: how many pieces of each, and what one piece weighs there (grams). */
export interface ParcelContent {
  item: CustomsItem;
  quantity: number;
  piece_weight_g: number;
}

/**
 * The pieces of `items` (in line order) over `parcels`, as evenly as the parcels allow (the first
 * parcels take one more when they do not divide evenly); each piece weighs its parcel's weight over
 * the pieces in it, so the items of a parcel add up to the parcel's weight. Fewer pieces than
 * parcels cannot be declared per parcel: a 422.
 */
export function parcelContents(items: readonly CustomsItem[], parcels: readonly ParcelInput[]): ParcelContent[][] {
  const pieces = items.reduce((sum, item) => sum + item.quantity, 0);
  if (pieces < parcels.length) {
    throw new ValidationError('A shipment leaving the EU customs area declares the contents of each parcel', [
      { field: 'parcels', message: `${parcels.length} parcels carry only ${pieces} pieces: every parcel must carry at least one` },
    ]);
  }
  const base = Math.floor(pieces / parcels.length);
  const extra = pieces % parcels.length;
  const contents: ParcelContent[][] = [];
  let itemIndex = 0;
  let takenOfItem = 0;
  parcels.forEach((parcel, index) => {
    let room = base + (index < extra ? 1 : 0);
    const size = room;
    const content: ParcelContent[] = [];
    while (room > 0) {
      const item = items[itemIndex]!;
      const take = Math.min(room, item.quantity - takenOfItem);
      if (take > 0) content.push({ item, quantity: take, piece_weight_g: 0 });
      room -= take;
      takenOfItem += take;
      if (takenOfItem === item.quantity) {
        itemIndex += 1;
        takenOfItem = 0;
      }
    }
    const pieceWeight = parcel.weight_g / size;
    contents.push(content.map((entry) => ({ ...entry, piece_weight_g: pieceWeight })));
  });
  return contents;
}
