/**
 * A change of an order (`PUT /v1/orders/{id}`) with what production does with it — the process
 * layer composes the two, so neither domain imports the other: orders decide the change
 * (`prepareOrderChange`: the rules, the lines' prices, the addresses) and build its parts
 * (`orderChangeParts`); production says what the move adds (`productionForOrderChange`: confirming
 * creates one job per line — waiting for approval where a proof of the line requires it
 * (shared/proofs/gate.ts) —, cancelling cancels the open ones, ready and beyond wait for them); one
 * transaction writes both. A VersionConflict (the order, its stock or a job moved) reads again.
 */
import type { Tenant } from '#shared/auth/principal';
import type { IfMatch } from '#shared/orders/preconditions';
import { writeOrderChange } from '#shared/orders/repository';
import type { Order, OrderUpdate } from '#shared/orders/schema';
import { changeWithRetries, prepareOrderChange, presentOrder } from '#shared/orders/service';
import type { OrderRecord } from '#shared/orders/stored';
import { orderChangeParts } from '#shared/orders/transitions';
import { entersProduction, productionForOrderChange } from '#shared/production/order-jobs';
import { linesAwaitingApproval } from '#shared/proofs/gate';

/** `by`: who changes it (the key prefix), for the history of the production jobs a status change creates or cancels. */
export function changeOrder(tenant: Tenant, id: number, changes: OrderUpdate, ifMatch: IfMatch, by: string): Promise<Order> {
  return changeWithRetries(async () => {
    const change = await prepareOrderChange(tenant, id, changes, ifMatch);
    if (change.kind === 'lines') {
      await writeOrderChange(change.parts);
      return presentOrder(change.after);
    }
    const { before, after } = change;
    // Jobs made now wait for the approval their lines' proofs require (shared/proofs/gate.ts).
    const awaiting = entersProduction(before.status, after.status) ? await linesAwaitingApproval(tenant, after) : undefined;
    const production = await productionForOrderChange(tenant, before, after, by, awaiting?.lines);
    const stored: OrderRecord = production.jobIds ? { ...after, job_ids: production.jobIds } : after;
    await writeOrderChange([
      ...orderChangeParts(tenant, before, stored, { by: 'hand', extras: production.extras }),
      ...production.parts,
      ...(production.jobIds ? (awaiting?.parts ?? []) : []),
    ]);
    return presentOrder(stored);
  });
}
