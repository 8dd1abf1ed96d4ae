import { CSV_MEDIA_TYPES } from '#shared/legacy-products/contract';
import * as legacyProductOperations from '#shared/legacy-products/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { textBody } from '#shared/http/raw-body';
import { MAX_CSV_BYTES } from '#shared/legacy-products/price-table';
import { importPrices } from '#shared/legacy-products/service';

export const handler = defineHandler(legacyProductOperations.prices, async ({ tenant, params, event }) =>
  ok(await importPrices(tenant, params.id, textBody(event, CSV_MEDIA_TYPES, MAX_CSV_BYTES))),
);
