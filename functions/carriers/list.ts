import { defineHandler } from '#shared/http/handler';
import { listed, pagination } from '#shared/http/envelope';
import { serverUrlOf } from '#shared/http/server-url';
import * as shipmentOperations from '#shared/shipments/contract';
import { listCarrierSettings } from '#shared/shipments/repository';
import { presentSettings } from '#shared/shipments/settings';

/** A handful of carriers at most: one page, whole. */
export const handler = defineHandler(shipmentOperations.carriers, async ({ tenant, headers, event }) => {
  const base = serverUrlOf(headers, event.path, event.requestContext) ?? '';
  const items = (await listCarrierSettings(tenant)).map((settings) => presentSettings(settings, base));
  return listed(items, pagination(1, 25, items.length, { hasMore: false }));
});
