/** The return label PDF, as the label: bytes for `Accept: application/pdf`, else a redirect; `format=url`: JSON; 404 before a return. */
import { defineHandler } from '#shared/http/handler';
import { acceptsFirst, documentResult, ok, redirect } from '#shared/http/envelope';
import * as shipmentOperations from '#shared/shipments/contract';
import { presignedReturnLabel, returnLabelPdf } from '#shared/shipments/labels';
import { requireShipment } from '#shared/shipments/repository';

export const handler = defineHandler(shipmentOperations.returnLabelPdf, async ({ tenant, params, query, headers }) => {
  const shipment = await requireShipment(tenant, params.id);
  if (query.format === 'url') return ok(await presignedReturnLabel(tenant, shipment));
  if (!acceptsFirst(headers.accept, 'application/pdf')) return redirect((await presignedReturnLabel(tenant, shipment)).url);
  const pdf = await returnLabelPdf(tenant, shipment);
  return documentResult(pdf.bytes, 'application/pdf', `inline; filename="${pdf.filename}"`, { 'X-Document-Cached': String(pdf.cached) });
});
