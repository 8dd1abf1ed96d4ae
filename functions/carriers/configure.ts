import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { serverUrlOf } from '#shared/http/server-url';
import * as shipmentOperations from '#shared/shipments/contract';
import { configureCarrier, presentSettings } from '#shared/shipments/settings';

export const handler = defineHandler(shipmentOperations.configure, async ({ tenant, params, body, headers, event }) => {
  const settings = await configureCarrier(tenant, params.carrier, body);
  return ok(presentSettings(settings, serverUrlOf(headers, event.path, event.requestContext) ?? ''));
});
