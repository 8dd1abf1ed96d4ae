/** The delivery note PDF, as the label and the invoice PDF: bytes for `Accept: application/pdf`, else a redirect; `format=url`: JSON. */
import { defineHandler } from '#shared/http/handler';
import { acceptsFirst, documentResult, ok, redirect } from '#shared/http/envelope';
import * as shipmentOperations from '#shared/shipments/contract';
import { deliveryNotePdf, presignedDeliveryNote } from '#shared/shipments/delivery-note';
import { requireShipment } from '#shared/shipments/repository';

export const handler = defineHandler(shipmentOperations.deliveryNote, async ({ tenant, params, query, headers }) => {
  const shipment = await requireShipment(tenant, params.id);
  if (query.format === 'url') return ok(await presignedDeliveryNote(tenant, shipment));
  if (!acceptsFirst(headers.accept, 'application/pdf')) return redirect((await presignedDeliveryNote(tenant, shipment)).url);
  const pdf = await deliveryNotePdf(tenant, shipment);
  return documentResult(pdf.bytes, 'application/pdf', `inline; filename="${pdf.filename}"`, { 'X-Document-Cached': String(pdf.cached) });
});
