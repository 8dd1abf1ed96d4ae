/**
 * The production gate's reads (docs/proofs.md#the-production-gate), for the process layer that
 * moves jobs (shared/fulfilment/job-moves.ts) and confirms orders (order-changes.ts): a job of a
 * line whose latest proof requires approval enters printing only when an approved proof covers the
 * line and the line's current artwork hashes are the approved ones — else 409 naming the proof.
 * The move is then conditional on the line's marker being the one read (its version), so a newer
 * proof, or a change of what was approved, and the move cannot both succeed.
 */
import type { Tenant } from '#shared/auth/principal';
import { ConflictError, VersionConflict } from '#shared/errors';
import type { OrderRecord } from '#shared/orders/stored';
import type { TransactionPart } from '#shared/db/table';
import { readLineApproval, readLineApprovals } from './repository';
import { awaitsApproval, currentHashes, gateOf } from './status';
import { lineApprovalCheck, lineApprovalPut } from './stored';

/**
 * The gate for a job of `order`'s line `lineId` entering printing (`jobId`, for the message): the
 * parts the move must carry (the marker's condition), or 409 `conflict` naming the proof needed.
 */
export async function printingGate(tenant: Tenant, order: OrderRecord, lineId: number, jobId: number): Promise<TransactionPart[]> {
  const approval = await readLineApproval(tenant, order.id, lineId);
  if (!approval) return [];
  const line = order.items.find((item) => item.id === lineId);
  const verdict = gateOf(approval, line ? currentHashes(line) : []);
  if (!verdict.open) {
    throw new ConflictError(`Job ${jobId} cannot start printing: ${verdict.message}`, [
      { field: 'proof_id', message: `proof ${verdict.proofId}: ${verdict.reason}` },
    ]);
  }
  return [{ item: lineApprovalCheck(tenant, approval), onConditionFailure: () => new VersionConflict('proof approval') }];
}

/**
 * The lines of `order` whose jobs, made now (its confirmation), wait for a proof's approval, with
 * the markers' conditions: an approval that lands between the read and the write makes the
 * confirmation read again.
 */
export async function linesAwaitingApproval(tenant: Tenant, order: OrderRecord): Promise<{ lines: Set<number>; parts: TransactionPart[] }> {
  const approvals = await readLineApprovals(
    tenant,
    order.id,
    order.items.map((line) => line.id),
  );
  const lines = new Set(order.items.filter((line) => awaitsApproval(approvals.get(line.id), currentHashes(line))).map((line) => line.id));
  const parts = [...approvals.values()].map((approval) => ({
    item: lineApprovalCheck(tenant, approval),
    onConditionFailure: () => new VersionConflict('proof approval'),
  }));
  return { lines, parts };
}

/**
 * A line's artwork replaced (the order's change of kind "artwork"): its approval marker, when a
 * proof was ever made for it, is written again with its version raised — in the replacement's
 * transaction, conditional on the version read — so an approval of the old hashes no longer opens
 * the gate (it compares them with the new files) and a job's move to printing that read the marker
 * before fails its condition and is judged again. `awaiting`: whether the line's jobs now wait
 * for a proof's approval (the latest proof requires one and did not approve these very files).
 */
export async function artworkReplacedMarker(
  tenant: Tenant,
  order: OrderRecord,
  lineId: number,
): Promise<{ awaiting: boolean; parts: TransactionPart[] }> {
  const approval = await readLineApproval(tenant, order.id, lineId);
  if (!approval) return { awaiting: false, parts: [] };
  const line = order.items.find((item) => item.id === lineId);
  return {
    awaiting: awaitsApproval(approval, line ? currentHashes(line) : []),
    parts: [{ item: lineApprovalPut(tenant, approval, approval), onConditionFailure: () => new VersionConflict('proof approval') }],
  };
}
