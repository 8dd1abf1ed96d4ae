import * as orderOperations from '#shared/orders/contract';
import { defineHandler } from '#shared/http/handler';
import { ok } from '#shared/http/envelope';
import { etagHeader, parseIfMatch } from '#shared/orders/preconditions';
import { replaceLineArtwork } from '#shared/fulfilment/line-artwork';

export const handler = defineHandler(orderOperations.replaceLineFiles, async ({ tenant, principal, params, body, headers }) => {
  const order = await replaceLineArtwork(
    tenant,
    params.id,
    params.line_id,
    body.file_ids,
    parseIfMatch(headers['if-match']),
    principal.keyPrefix,
  );
  return ok(order, etagHeader(order));
});
