/** The label PDF of one parcel, as the invoice PDF: bytes for `Accept: application/pdf`, else a redirect; `format=url`: JSON. */
import { defineHandler } from '#shared/http/handler';
import { acceptsFirst, documentResult, ok, redirect } from '#shared/http/envelope';
import * as shipmentOperations from '#shared/shipments/contract';
import { labelPdf, presignedLabel } from '#shared/shipments/labels';
import { requireShipment } from '#shared/shipments/repository';

export const handler = defineHandler(shipmentOperations.label, async ({ tenant, params, query, headers }) => {
  const shipment = await requireShipment(tenant, params.id);
  if (query.format === 'url') return ok(await presignedLabel(tenant, shipment, query.parcel));
  if (!acceptsFirst(headers.accept, 'application/pdf')) return redirect((await presignedLabel(tenant, shipment, query.parcel)).url);
  const pdf = await labelPdf(tenant, shipment, query.parcel);
  return documentResult(pdf.bytes, 'application/pdf', `inline; filename="${pdf.filename}"`, { 'X-Document-Cached': String(pdf.cached) });
});
