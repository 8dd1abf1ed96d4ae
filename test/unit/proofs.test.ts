import { describe, expect, it } from 'vitest';
import { DomainError } from '#shared/errors';
import { linkTokenHash, newLinkToken, tenantOfLinkToken } from '#shared/proofs/links';
import { decisionPut, lineApprovalCheck, lineApprovalPut, proofUpdate, type ProofRecord } from '#shared/proofs/stored';
import {
  PROOF_STATES,
  assertDecidable,
  awaitsApproval,
  canMoveProof,
  gateOf,
  proofStateAt,
  type LineApproval,
  type ProofState,
} from '#shared/proofs/status';

/** The table of docs/proofs.md: only a pending proof moves, to any of the four other states. */
const TABLE: Record<ProofState, ProofState[]> = {
  pending: ['approved', 'changes_requested', 'superseded', 'expired'],
  approved: [],
  changes_requested: [],
  superseded: [],
  expired: [],
};

const hashA = 'a'.repeat(64);
const hashB = 'b'.repeat(64);

const approval = (over: Partial<LineApproval> = {}): LineApproval => ({
  line_id: 1,
  requires_approval: true,
  proof_id: 7,
  approved_proof_id: null,
  approved_sha256: [],
  ...over,
});

describe('the proof state machine', () => {
  it('allows exactly the moves of the documented table, every pair checked', () => {
    for (const from of PROOF_STATES)
      for (const to of PROOF_STATES) expect(canMoveProof(from, to), `${from} → ${to}`).toBe(TABLE[from].includes(to));
  });

  it('reads a pending proof past its expiry as expired, and no other state', () => {
    const now = new Date('2026-05-01T12:00:00.000Z');
    expect(proofStateAt('pending', '2026-05-01T11:59:59.999Z', now)).toBe('expired');
    expect(proofStateAt('pending', '2026-05-01T12:00:00.000Z', now)).toBe('expired');
    expect(proofStateAt('pending', '2026-05-01T12:00:00.001Z', now)).toBe('pending');
    expect(proofStateAt('approved', '2026-01-01T00:00:00.000Z', now)).toBe('approved');
    expect(proofStateAt('superseded', '2026-01-01T00:00:00.000Z', now)).toBe('superseded');
  });

  it('takes one decision: a decided, superseded or expired proof is refused with 409 conflict naming its state', () => {
    expect(() => assertDecidable(3, 'pending')).not.toThrow();
    for (const state of ['approved', 'changes_requested', 'superseded', 'expired'] as const) {
      let error: unknown;
      try {
        assertDecidable(3, state);
      } catch (caught) {
        error = caught;
      }
      expect(error, state).toBeInstanceOf(DomainError);
      expect((error as DomainError).code).toBe('conflict');
      expect((error as DomainError).message).toContain('Proof 3');
      expect((error as DomainError).details).toEqual([{ field: 'state', message: state }]);
    }
  });
});

describe('the production gate', () => {
  it('leaves a line without a proof, or whose latest proof requires no approval, ungated', () => {
    expect(gateOf(undefined, [hashA])).toEqual({ open: true, gated: false });
    expect(gateOf(approval({ requires_approval: false }), [hashA])).toEqual({ open: true, gated: false });
  });

  it('holds a line whose latest proof is not approved, naming the proof needed', () => {
    const verdict = gateOf(approval(), [hashA]);
    expect(verdict).toMatchObject({ open: false, reason: 'awaiting_approval', proofId: 7 });
    expect(verdict.open === false && verdict.message).toContain('proof 7');
  });

  it('opens a line when the approved hashes are exactly its current artwork, file by file and in order', () => {
    const approved = approval({ approved_proof_id: 7, approved_sha256: [hashA, hashB] });
    expect(gateOf(approved, [hashA, hashB])).toEqual({ open: true, gated: true });
    expect(gateOf(approved, [hashB, hashA])).toMatchObject({ open: false, reason: 'artwork_changed', proofId: 7 });
    expect(gateOf(approved, [hashA])).toMatchObject({ open: false, reason: 'artwork_changed' });
    expect(gateOf(approved, [hashA, hashB, hashA])).toMatchObject({ open: false, reason: 'artwork_changed' });
  });

  it('holds a line whose artwork was replaced after the approval, and one whose file has no hash yet', () => {
    const approved = approval({ approved_proof_id: 7, approved_sha256: [hashA] });
    expect(gateOf(approved, [hashB])).toMatchObject({ open: false, reason: 'artwork_changed' });
    expect(gateOf(approved, [null])).toMatchObject({ open: false, reason: 'artwork_changed' });
    expect(awaitsApproval(approved, [hashB])).toBe(true);
    expect(awaitsApproval(approved, [hashA])).toBe(false);
  });
});

describe('proof link tokens', () => {
  const tenant = { accountId: 'acct_Ab12', mode: 'test' as const };

  it('carry the tenant and 256 random bits; only their SHA-256 is stored', () => {
    const token = newLinkToken(tenant);
    expect(token).toMatch(/^acct_Ab12\.test\.[A-Za-z0-9_-]{43}$/);
    expect(Buffer.from(token.split('.')[2]!, 'base64url')).toHaveLength(32);
    expect(tenantOfLinkToken(token)).toEqual(tenant);
    expect(linkTokenHash(token)).toMatch(/^[0-9a-f]{64}$/);
    expect(linkTokenHash(token)).not.toContain(token.split('.')[2]);
    expect(newLinkToken(tenant)).not.toBe(token);
  });

  it('name no tenant when malformed: short, another mode, extra parts', () => {
    const secret = 'x'.repeat(43);
    for (const token of [
      '',
      `acct_Ab12.test.${'x'.repeat(42)}`,
      `acct_Ab12.prod.${secret}`,
      `acct_Ab12.test.${secret}.x`,
      `other.test.${secret}`,
    ])
      expect(tenantOfLinkToken(token), token).toBeUndefined();
  });
});

describe('the conditions that keep proofs consistent', () => {
  const tenant = { accountId: 'acct_Ab12', mode: 'test' as const };
  const marker = {
    order_id: 4,
    line_id: 2,
    requires_approval: true,
    proof_id: 7,
    approved_proof_id: 7,
    approved_sha256: [hashA],
    version: 3,
  };

  it("makes a job's move to printing conditional on the line's approval marker being the one read", () => {
    const check = lineApprovalCheck(tenant, marker).ConditionCheck!;
    expect(check.Key).toEqual({ pk: 'T#acct_Ab12#test#ORDER#4', sk: 'PROOF_LINE#000000000002' });
    expect(check.ConditionExpression).toBe('version = :version');
    expect(check.ExpressionAttributeValues).toEqual({ ':version': 3 });
  });

  it('writes a marker over the version read (a first one only where none exists)', () => {
    const next = { ...marker, approved_proof_id: null, approved_sha256: [], proof_id: 8 };
    expect(lineApprovalPut(tenant, marker, next).Put).toMatchObject({ ConditionExpression: 'version = :version', Item: { version: 4 } });
    expect(lineApprovalPut(tenant, undefined, next).Put).toMatchObject({
      ConditionExpression: 'attribute_not_exists(pk)',
      Item: { version: 1 },
    });
  });

  it('puts a decision record once, and moves the proof only from pending, at its version, before it expires', () => {
    const record = {
      proof_id: 7,
      decision: 'approved' as const,
      decided_by: { kind: 'link_holder' as const, customer_id: null, via: 'link' as const, key_prefix: null, name: null },
      decided_at: '2026-05-01T12:00:00.000Z',
      ip_address: '192.0.2.1',
      user_agent: null,
      comment: null,
      artwork: [],
    };
    const put = decisionPut(tenant, record).Put!;
    expect(put.ConditionExpression).toBe('attribute_not_exists(pk)');
    expect(put.Item).toMatchObject({ pk: 'T#acct_Ab12#test#PROOF#7', sk: 'DECISION', decision: 'approved' });
    const proof = { id: 7, state: 'pending', version: 2, expires_at: '2026-05-02T00:00:00.000Z' } as ProofRecord;
    const update = proofUpdate(tenant, proof, { ...proof, state: 'approved', version: 3 }, { notExpiredAt: record.decided_at }).Update!;
    expect(update.ConditionExpression).toBe('#state = :from AND expires_at > :now AND #version = :expected');
    expect(update.ExpressionAttributeValues).toMatchObject({ ':from': 'pending', ':now': record.decided_at, ':expected': 2 });
  });
});
