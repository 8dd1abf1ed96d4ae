/**
 * A shipment's delivery note (`GET /v1/shipments/{id}/delivery-note`): a PDF with the shop's company
 * block, the order number, the recipient, the lines and quantities the shipment carries and, outside
 * the EU customs area, the customs lines (customs.ts). Rendered once — what a shipment carries and
 * where it goes never change — and kept in the documents bucket next to its labels, served from
 * there like the invoice and quote PDFs. The company is the account's as it is when the note is
 * first rendered: its legal name and address are needed (422 naming each missing one). The renderer
 * is imported on first need only.
 */
import { getAccount } from '#shared/accounts/repository';
import type { Tenant } from '#shared/auth/principal';
import { shipmentKeys } from '#shared/db/keys';
import { NotFoundError, ValidationError } from '#shared/errors';
import { isStored, presignedGet, readStored, store } from '#shared/invoices/document-store';
import { readOrderToInvoice } from '#shared/invoices/repository';
import type { OrderRecord } from '#shared/orders/stored';
import { needsCustoms } from './carriers/customs-area';
import { customsDeclarationOf } from './customs';
import type { DeliveryNote } from './delivery-note-pdf';
import * as repo from './repository';
import type { ShipmentRecord } from './stored';

const PDF = 'application/pdf';

export const deliveryNoteFilename = (shipment: Pick<ShipmentRecord, 'id' | 'order_number'>): string =>
  `delivery-note-${shipment.order_number}-${shipment.id}.pdf`;

/** The customs the shipment declared, when it leaves the EU customs area (none for one made without). */
async function customsOf(tenant: Tenant, order: OrderRecord, shipment: ShipmentRecord) {
  if (!needsCustoms(shipment.address.country)) return null;
  const invoiceNumber = (await readOrderToInvoice(tenant, order.id)).marked?.invoice_number ?? null;
  try {
    return customsDeclarationOf(order, shipment, invoiceNumber);
  } catch (error) {
    if (error instanceof ValidationError) return null;
    throw error;
  }
}

/** What the renderer needs, from the shipment, its order and the account's company. */
export async function deliveryNoteOf(tenant: Tenant, shipment: ShipmentRecord): Promise<DeliveryNote> {
  const [account, { order }] = await Promise.all([getAccount(tenant.accountId), repo.readOrderWithShipping(tenant, shipment.order_id)]);
  if (!order) throw new NotFoundError('order', shipment.order_id);
  const company = account?.company;
  if (!company?.legal_name || !company.address) {
    throw new ValidationError("The account's company details are incomplete: a delivery note needs them (set them with PUT /v1/account)", [
      ...(company?.legal_name ? [] : [{ field: 'company.legal_name', message: 'is required for a delivery note' }]),
      ...(company?.address ? [] : [{ field: 'company.address', message: 'is required for a delivery note' }]),
    ]);
  }
  const customs = await customsOf(tenant, order, shipment);
  return {
    test_mode: tenant.mode === 'test',
    company: { legal_name: company.legal_name, address: company.address, email: company.email, phone: company.phone },
    order_number: order.order_number,
    shipment_id: shipment.id,
    date: shipment.created_at.slice(0, 10),
    parcels: shipment.parcels.length,
    tracking_number: shipment.tracking_number,
    recipient: shipment.address,
    lines: shipment.items.map((item) => {
      const line = order.items.find((candidate) => candidate.id === item.line_id);
      return {
        line_id: item.line_id,
        description: line?.description ?? `Line ${item.line_id}`,
        quantity: item.quantity,
        hs_code: customs ? (line?.hs_code ?? null) : null,
        origin_country: customs ? (line?.origin_country ?? null) : null,
      };
    }),
    customs: customs && { invoice_number: customs.invoice_number, export_reason: customs.export_reason },
    footer: company.invoice_footer,
  };
}

async function render(tenant: Tenant, shipment: ShipmentRecord): Promise<Uint8Array> {
  const { renderDeliveryNotePdf } = await import('./delivery-note-pdf');
  return renderDeliveryNotePdf(await deliveryNoteOf(tenant, shipment));
}

/** The delivery note PDF, from the bucket or rendered and stored now. */
export async function deliveryNotePdf(
  tenant: Tenant,
  shipment: ShipmentRecord,
): Promise<{ bytes: Uint8Array; filename: string; cached: boolean }> {
  const key = shipmentKeys.deliveryNote(tenant, shipment.id);
  const filename = deliveryNoteFilename(shipment);
  const stored = await readStored(key);
  if (stored) return { bytes: stored, filename, cached: true };
  const bytes = await render(tenant, shipment);
  await store(key, bytes, PDF, filename);
  return { bytes, filename, cached: false };
}

/** A presigned URL of the delivery note (rendered first if need be), valid 15 minutes. */
export async function presignedDeliveryNote(tenant: Tenant, shipment: ShipmentRecord, now = new Date()) {
  const key = shipmentKeys.deliveryNote(tenant, shipment.id);
  const filename = deliveryNoteFilename(shipment);
  if (!(await isStored(key))) await store(key, await render(tenant, shipment), PDF, filename);
  return presignedGet(key, PDF, filename, now);
}
