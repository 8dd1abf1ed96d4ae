import { describe, expect, it, vi } from 'vitest';
import { ApiClient } from '#admin/api/client';
import type { Job, OrderLine, Proof, ProofDecision } from '#admin/api/types';
import { awaitingColumns, decidedByText, hasLiveLink, proofableLines, proofRequest, proofStateView, shortHash } from '#admin/lib/proofs';

const SHA = 'a3f1c9e07b2d4e5f60718293a4b5c6d7e8f90112233445566778899aabbccdd';

const decision = (decided_by: Partial<ProofDecision['decided_by']>): ProofDecision =>
  ({
    proof_id: 7,
    decision: 'approved',
    decided_by: { kind: 'customer', customer_id: 3, via: 'secret_key', key_prefix: 'sk_test_4f2a', name: null, ...decided_by },
    decided_at: '2026-11-28T05:00:00.000Z',
    ip_address: null,
    user_agent: null,
    comment: null,
    artwork: [],
  }) as ProofDecision;

const job = (id: number, status: Job['status'], awaiting: boolean, machine: number | null = null) =>
  ({ id, status, awaiting_approval: awaiting, machine_id: machine }) as Job;

describe('the admin panel’s proofs', () => {
  it('shows each state as a labelled badge and hashes shortened', () => {
    expect(proofStateView('approved')).toMatchObject({ key: 'approved', label: 'Approved', tone: 'success' });
    expect(proofStateView('changes_requested').tone).toBe('danger');
    expect(proofStateView('expired').label).toBe('Expired');
    expect(shortHash(SHA)).toBe('a3f1c9e07b2d…');
    expect(shortHash('abc')).toBe('abc');
    expect(shortHash(null)).toBe('—');
  });

  it('says who decided: the shop by its key, the signed-in customer or the link holder, with the name given', () => {
    expect(decidedByText(decision({}))).toBe("The shop on the customer's behalf (sk_test_4f2a…)");
    expect(decidedByText(decision({ via: 'customer_token', key_prefix: null }))).toBe('The customer, signed in');
    expect(decidedByText(decision({ kind: 'link_holder', via: 'link', customer_id: null, key_prefix: null, name: 'Ada' }))).toBe(
      'Ada — the holder of the proof link',
    );
  });

  it('offers only lines whose artwork has known hashes, and a link only while it is live', () => {
    const lines = [
      { id: 1, files: [{ sha256: SHA }] },
      { id: 2, files: [] },
      { id: 3, files: [{ sha256: null }] },
    ] as unknown as OrderLine[];
    expect(proofableLines(lines).map((line) => line.id)).toEqual([1]);
    expect(hasLiveLink({ link_expires_at: '2026-12-01T00:00:00.000Z', link_revoked_at: null } as Proof)).toBe(true);
    expect(hasLiveLink({ link_expires_at: '2026-12-01T00:00:00.000Z', link_revoked_at: '2026-11-28T00:00:00.000Z' } as Proof)).toBe(false);
    expect(hasLiveLink({ link_expires_at: null, link_revoked_at: null } as Proof)).toBe(false);
  });

  it('refuses a form without lines or a document id, and builds the request otherwise', () => {
    expect(proofRequest({ lineIds: [], fileId: 'x', message: '', notify: false })).toEqual({
      problems: { line_ids: 'Choose at least one line.', file_id: 'Give the id of the proof document (a ready file).' },
    });
    expect(proofRequest({ lineIds: [2, 1], fileId: ' 12 ', message: '  Check the bleed ', notify: true })).toEqual({
      input: { line_ids: [1, 2], file_id: 12, message: 'Check the bleed', notify: true },
    });
    expect(proofRequest({ lineIds: [1], fileId: '12', message: ' ', notify: false })).toEqual({
      input: { line_ids: [1], file_id: 12, notify: false },
    });
  });

  it('groups the jobs awaiting approval into the board’s columns, by machine when filtered', () => {
    const jobs = [job(1, 'queued', true), job(2, 'scheduled', true, 4), job(3, 'scheduled', true, 5), job(4, 'queued', false)];
    const all = awaitingColumns(jobs, ['queued', 'scheduled', 'printing']);
    expect(all.get('queued')!.items.map((entry) => entry.id)).toEqual([1]);
    expect(all.get('scheduled')!.pagination.total).toBe(2);
    expect(all.get('printing')!.items).toEqual([]);
    const onMachine = awaitingColumns(jobs, ['queued', 'scheduled'], 4);
    expect(onMachine.get('scheduled')!.items.map((entry) => entry.id)).toEqual([2]);
    expect(onMachine.get('queued')!.items).toEqual([]);
  });

  it('calls the proof routes and lists the waiting jobs with awaiting_approval=true', async () => {
    const fetch = vi.fn(async (_input: string | URL | Request, _init?: RequestInit) =>
      Response.json({ success: true, data: [], pagination: { page: 1, per_page: 50, has_more: false, total: 0, total_pages: 0 } }),
    );
    const client = new ApiClient({ baseUrl: '', key: 'sk_test_abc', fetch });
    await client.listProofs(9);
    await client.listJobs({ awaiting_approval: true });
    await client.createProof(9, { line_ids: [1], file_id: 12, notify: true });
    await client.revokeProofLink(7);
    expect(fetch.mock.calls.map(([url, init]) => `${init?.method} ${String(url)}`)).toEqual([
      'GET /v1/orders/9/proofs?per_page=50',
      'GET /v1/production/jobs?awaiting_approval=true&per_page=100',
      'POST /v1/orders/9/proofs',
      'DELETE /v1/proofs/7/link',
    ]);
    expect(JSON.parse(fetch.mock.calls[2]![1]!.body as string)).toEqual({ line_ids: [1], file_id: 12, notify: true });
  });
});
