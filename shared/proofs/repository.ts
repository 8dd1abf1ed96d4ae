/**
 * Proofs in the single table (keys: shared/db/keys.ts `proofKeys`; docs/proofs.md). Reads here;
 * every write is one TransactWriteItems the service assembles from the builders of stored.ts —
 * with the jobs' waiting marks (shared/production/stored.ts) and the events — whose parts say
 * what a failed condition means (the proof or a line's marker moved since the read: read again).
 */
import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { Tenant } from '#shared/auth/principal';
import { dynamo } from '#shared/clients/dynamodb';
import { countCollectionUpTo, getMany, readWindow, type PageRequest, type Total } from '#shared/db/collections';
import { proofKeys } from '#shared/db/keys';
import { tableName, type TransactItem, type TransactionPart } from '#shared/db/table';
import { transactWrite } from '#shared/db/transactions';
import { NotFoundError } from '#shared/errors';
import {
  decisionFromItem,
  lineApprovalFromItem,
  linkFromItem,
  proofFromItem,
  type DecisionRecord,
  type LineApprovalRecord,
  type LinkRecord,
  type ProofRecord,
} from './stored';

/** The proof and its decision record (one Query of the proof's partition would do too; two keys, one BatchGetItem). */
export async function readProof(
  tenant: Tenant,
  id: number,
  consistent = false,
): Promise<{ proof: ProofRecord; decision: DecisionRecord | undefined } | undefined> {
  const items = await getMany([proofKeys.proof(tenant, id), proofKeys.decision(tenant, id)], { consistent });
  const proof = items.find((item) => item.entity === 'PROOF');
  if (!proof) return undefined;
  const decision = items.find((item) => item.entity === 'PROOF_DECISION');
  return { proof: proofFromItem(proof), decision: decision && decisionFromItem(decision) };
}

export async function requireProof(tenant: Tenant, id: number, consistent = false) {
  const found = await readProof(tenant, id, consistent);
  if (!found) throw new NotFoundError('proof', id);
  return found;
}

/** Proofs by id (one BatchGetItem, strongly consistent: a new proof supersedes what it reads). */
export async function readProofs(tenant: Tenant, ids: readonly number[]): Promise<Map<number, ProofRecord>> {
  if (ids.length === 0) return new Map();
  const items = await getMany(
    [...new Set(ids)].map((id) => proofKeys.proof(tenant, id)),
    { consistent: true },
  );
  return new Map(items.map(proofFromItem).map((proof) => [proof.id, proof]));
}

/** The decision records of these proofs, by proof id. */
export async function readDecisions(tenant: Tenant, proofIds: readonly number[]): Promise<Map<number, DecisionRecord>> {
  if (proofIds.length === 0) return new Map();
  const items = await getMany(proofIds.map((id) => proofKeys.decision(tenant, id)));
  return new Map(items.map(decisionFromItem).map((decision) => [decision.proof_id, decision]));
}

/** The approval markers of an order's lines, by line id (strongly consistent: the gate and new proofs decide on them). */
export async function readLineApprovals(
  tenant: Tenant,
  orderId: number,
  lineIds: readonly number[],
): Promise<Map<number, LineApprovalRecord>> {
  if (lineIds.length === 0) return new Map();
  const items = await getMany(
    lineIds.map((lineId) => proofKeys.lineApproval(tenant, orderId, lineId)),
    { consistent: true },
  );
  return new Map(items.map(lineApprovalFromItem).map((approval) => [approval.line_id, approval]));
}

/** One line's approval marker (strongly consistent), or undefined when no proof was ever made for it. */
export async function readLineApproval(tenant: Tenant, orderId: number, lineId: number): Promise<LineApprovalRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: proofKeys.lineApproval(tenant, orderId, lineId), ConsistentRead: true }),
  );
  return result.Item ? lineApprovalFromItem(result.Item) : undefined;
}

/** A link by its token's hash (strongly consistent: a revocation counts at once). */
export async function readLink(tenant: Tenant, tokenHash: string): Promise<LinkRecord | undefined> {
  const result = await dynamo().send(
    new GetCommand({ TableName: tableName(), Key: proofKeys.link(tenant, tokenHash), ConsistentRead: true }),
  );
  return result.Item ? linkFromItem(result.Item) : undefined;
}

/** A page of an order's proofs, newest first; the total counted on the index. */
export async function listProofsOfOrder(
  tenant: Tenant,
  orderId: number,
  page: PageRequest,
): Promise<{ items: ProofRecord[]; hasMore: boolean } & Total> {
  const query = { index: 'gsi1' as const, partition: proofKeys.ofOrder(tenant, orderId), newestFirst: true };
  const [window, count] = await Promise.all([
    readWindow(query, { perPage: page.perPage, offset: (page.page - 1) * page.perPage }),
    countCollectionUpTo(query),
  ]);
  return { items: window.items.map(proofFromItem), hasMore: window.hasMore, ...count };
}

/** Writes a proof's change (creation, supersession, decision, link) with what it joins: one transaction. */
export async function writeProofChange(parts: (TransactItem | TransactionPart)[]): Promise<void> {
  await transactWrite(parts);
}
