/**
 * How proofs are stored (docs/proofs.md, docs/data-model.md):
 *
 * - the proof item, listed per order (gsi1, newest first): the lines it covers, the proof
 *   document, the artwork it covers with the SHA-256 of each file (copied from the lines, never
 *   from the client), its state and expiry, and its link's hash (never the token);
 * - its decision record beside it, put once (`attribute_not_exists`) and never updated or
 *   deleted: who decided, when, from which address and user agent, the comment, and the hashes
 *   of the exact artwork decided on;
 * - an order line's approval marker in the order's partition: the line's latest proof, whether it
 *   requires approval, and the proof and hashes approved — what the production gate reads, and
 *   what a job's move to printing is conditional on;
 * - a link item by the SHA-256 of its token: the proof it opens, until when, whether revoked.
 */
import type { Tenant } from '#shared/auth/principal';
import { createdSortKey, proofKeys } from '#shared/db/keys';
import { tableName, type TransactItem } from '#shared/db/table';
import { versionedUpdate } from '#shared/db/update-expression';
import { codecs as c, entity, field, type RecordOf } from '#shared/schemas/fields';
import { DECISIONS, PROOF_STATES, type StoredProofState } from './status';

/** One artwork file a proof covers: its line, the file and its SHA-256 as the line held it. */
const coveredFile = /* @__PURE__ */ (() =>
  c.object(
    {
      line_id: field(c.int).describe('The order line'),
      file_id: field(c.int).describe('The artwork file (GET /v1/files/{id})'),
      filename: field(c.string),
      sha256: field(c.string).describe('The SHA-256 of the file as the line holds it (hex)'),
    },
    { id: 'ProofArtwork' },
  ))();

/** Who decided: the customer (by the shop's secret key on their behalf, or their own token), or whoever holds the link. */
const decidedBy = /* @__PURE__ */ (() =>
  c.object(
    {
      kind: field(c.enumOf(['customer', 'link_holder'])).describe(
        "customer: the proof's customer; link_holder: whoever held the proof link",
      ),
      customer_id: field(c.nullable(c.int)).describe('The customer, when decided as the customer'),
      via: field(c.enumOf(['secret_key', 'customer_token', 'link'])).describe(
        "secret_key: the shop on the customer's behalf; customer_token: the signed-in customer; link: the proof link",
      ),
      key_prefix: field(c.nullable(c.string)).describe("The shop's key, when the shop recorded it"),
      name: field(c.nullable(c.string)).describe('The name the decider gave (a link holder may sign)'),
    },
    { id: 'ProofDecider' },
  ))();

export const storedDecision = /* @__PURE__ */ (() =>
  entity({
    proof_id: field(c.int).fixed(),
    decision: field(c.enumOf(DECISIONS)).fixed(),
    decided_by: field(decidedBy).fixed(),
    decided_at: field(c.timestamp).fixed(),
    ip_address: field(c.nullable(c.string)).fixed().describe('The address the decision came from (the request context)'),
    user_agent: field(c.nullable(c.string)).fixed(),
    comment: field(c.nullable(c.string)).fixed(),
    artwork: field(c.list(coveredFile)).fixed().describe('The exact artwork decided on: each file with its SHA-256'),
  }))();

export const storedProof = /* @__PURE__ */ (() =>
  entity({
    id: field(c.int).fixed(),
    order_id: field(c.int).fixed(),
    order_number: field(c.string).fixed(),
    customer_id: field(c.int).fixed(),
    line_ids: field(c.list(c.int)).fixed().describe('The order lines it covers'),
    file_id: field(c.int).fixed().describe('The proof document (a soft-proof PDF the shop uploaded): GET /v1/files/{id}'),
    artwork: field(c.list(coveredFile)).fixed().describe("The artwork it covers, from the lines' current files"),
    message: field(c.nullable(c.string)).fixed(),
    requires_approval: field(c.boolean).fixed().describe("Whether the lines' production waits for its approval"),
    state: field(c.enumOf(PROOF_STATES)).describe('expired: pending, and expires_at has passed (computed when read)'),
    expires_at: field(c.timestamp).fixed(),
    superseded_by: field(c.nullable(c.int)).describe('The newer proof that replaced it'),
    decided_at: field(c.nullable(c.timestamp)),
    link_expires_at: field(c.nullable(c.timestamp)).describe('Until when its link opens it (null: no link, or revoked)'),
    link_revoked_at: field(c.nullable(c.timestamp)),
    /** The SHA-256 of its link's token: the token is shown once, when the link is made. */
    link_hash: field(c.nullable(c.string)).internal(),
    created_at: field(c.timestamp).fixed(),
    updated_at: field(c.timestamp),
    version: field(c.int).fixed().internal(),
  }))();

/** An order line's approval marker (never shown as such: the gate and the jobs read it). */
export const storedLineApproval = /* @__PURE__ */ (() =>
  entity({
    order_id: field(c.int).fixed(),
    line_id: field(c.int).fixed(),
    requires_approval: field(c.boolean),
    proof_id: field(c.int),
    approved_proof_id: field(c.nullable(c.int)),
    approved_sha256: field(c.list(c.string)),
    version: field(c.int).fixed(),
  }))();

export const storedLink = /* @__PURE__ */ (() =>
  entity({
    proof_id: field(c.int).fixed(),
    order_id: field(c.int).fixed(),
    customer_id: field(c.int).fixed(),
    expires_at: field(c.timestamp).fixed(),
    revoked_at: field(c.nullable(c.timestamp)),
  }))();

export type ProofRecord = RecordOf<typeof storedProof.shape>;
export type DecisionRecord = RecordOf<typeof storedDecision.shape>;
export type LineApprovalRecord = RecordOf<typeof storedLineApproval.shape>;
export type LinkRecord = RecordOf<typeof storedLink.shape>;
export type ArtworkRecord = ProofRecord['artwork'][number];

export const proofFromItem = (item: Record<string, unknown>): ProofRecord => storedProof.read(item);
export const decisionFromItem = (item: Record<string, unknown>): DecisionRecord => storedDecision.read(item);
export const lineApprovalFromItem = (item: Record<string, unknown>): LineApprovalRecord => storedLineApproval.read(item);
export const linkFromItem = (item: Record<string, unknown>): LinkRecord => storedLink.read(item);

const storedStateOf = (proof: ProofRecord): StoredProofState => (proof.state === 'expired' ? 'pending' : proof.state);

/** A new proof: its item, listed under its order. */
export function proofPut(tenant: Tenant, proof: ProofRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...proofKeys.proof(tenant, proof.id),
        entity: 'PROOF',
        ...storedProof.attributes({ ...proof, state: storedStateOf(proof) }, 'put'),
        gsi1pk: proofKeys.ofOrder(tenant, proof.order_id),
        gsi1sk: createdSortKey(proof.created_at, proof.id),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/**
 * The proof from `before` to `after`: conditional on the version and the stored state read (a
 * decision also on `expires_at` still ahead of `now`, so an expired proof takes none).
 */
export function proofUpdate(
  tenant: Tenant,
  before: ProofRecord,
  after: ProofRecord,
  options: { notExpiredAt?: string } = {},
): TransactItem {
  const attributes = storedProof.attributes({ ...after, state: storedStateOf(after) }, 'update');
  return versionedUpdate(proofKeys.proof(tenant, before.id), attributes, before.version, {
    condition: options.notExpiredAt === undefined ? '#state = :from' : '#state = :from AND expires_at > :now',
    names: { '#state': 'state' },
    values: { ':from': storedStateOf(before), ...(options.notExpiredAt === undefined ? {} : { ':now': options.notExpiredAt }) },
  });
}

/** The decision record: put once — a second decision on the same proof fails its condition. Never updated or deleted. */
export function decisionPut(tenant: Tenant, decision: DecisionRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...proofKeys.decision(tenant, decision.proof_id), entity: 'PROOF_DECISION', ...storedDecision.attributes(decision, 'put') },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** A line's approval marker written over what was read (`before`: none yet, or its version). */
export function lineApprovalPut(tenant: Tenant, before: LineApprovalRecord | undefined, after: LineApprovalRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: {
        ...proofKeys.lineApproval(tenant, after.order_id, after.line_id),
        entity: 'PROOF_LINE_APPROVAL',
        ...storedLineApproval.attributes({ ...after, version: before ? before.version + 1 : 1 }, 'put'),
      },
      ConditionExpression: before ? 'version = :version' : 'attribute_not_exists(pk)',
      ...(before ? { ExpressionAttributeValues: { ':version': before.version } } : {}),
    },
  };
}

/**
 * The gate's condition in a job's move to printing: the line's marker is still the one read (its
 * version: no newer proof, no approval withdrawn, no artwork hash changed since the read).
 */
export function lineApprovalCheck(tenant: Tenant, approval: LineApprovalRecord): TransactItem {
  return {
    ConditionCheck: {
      TableName: tableName(),
      Key: proofKeys.lineApproval(tenant, approval.order_id, approval.line_id),
      ConditionExpression: 'version = :version',
      ExpressionAttributeValues: { ':version': approval.version },
    },
  };
}

export function linkPut(tenant: Tenant, tokenHash: string, link: LinkRecord): TransactItem {
  return {
    Put: {
      TableName: tableName(),
      Item: { ...proofKeys.link(tenant, tokenHash), entity: 'PROOF_LINK', ...storedLink.attributes(link, 'put') },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

/** Revokes a link (kept, so a revoked token is refused like an unknown one). */
export function linkRevoke(tenant: Tenant, tokenHash: string, at: string): TransactItem {
  return {
    Update: {
      TableName: tableName(),
      Key: proofKeys.link(tenant, tokenHash),
      UpdateExpression: 'SET revoked_at = if_not_exists(revoked_at, :at)',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':at': at },
    },
  };
}
