/**
 * A line's artwork replaced on a confirmed or in-production order
 * (`PUT /v1/orders/{id}/lines/{line_id}/files`, docs/orders.md#replacing-a-lines-artwork): orders
 * decide the change (`prepareLineArtworkChange`: the files' checks, the change of kind "artwork"
 * and `order.updated`); proofs raise the line's approval marker (`artworkReplacedMarker`: an
 * approval of the old hashes no longer opens the gate, a concurrent move to printing fails its
 * condition) and say whether the line now waits for an approval; production gives the line's jobs
 * the new files and that wait, or refuses (409) once one started printing. One transaction writes
 * all of it; a VersionConflict (the order, the marker or a job moved) reads again.
 */
import type { Tenant } from '#shared/auth/principal';
import type { IfMatch } from '#shared/orders/preconditions';
import { writeOrderChange } from '#shared/orders/repository';
import type { Order } from '#shared/orders/schema';
import { changeWithRetries, prepareLineArtworkChange, presentOrder } from '#shared/orders/service';
import { artworkReplacedMarker } from '#shared/proofs/gate';
import { artworkReplacementPlan } from '#shared/production/order-jobs';

/** `by`: who replaces it (the key prefix), for the jobs' history. */
export function replaceLineArtwork(
  tenant: Tenant,
  orderId: number,
  lineId: number,
  fileIds: readonly number[],
  ifMatch: IfMatch,
  by: string,
): Promise<Order> {
  return changeWithRetries(async () => {
    const { after, parts } = await prepareLineArtworkChange(tenant, orderId, lineId, fileIds, ifMatch);
    const marker = await artworkReplacedMarker(tenant, after, lineId);
    const jobs = await artworkReplacementPlan(tenant, after, lineId, fileIds, marker.awaiting, by, after.updated_at);
    await writeOrderChange([...parts, ...marker.parts, ...jobs]);
    return presentOrder(after);
  });
}
