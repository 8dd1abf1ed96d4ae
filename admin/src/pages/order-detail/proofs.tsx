/**
 * The order's proofs (docs/proofs.md): each with its state, when it was made, the lines it covers
 * and its decision record (who, when, the comment, the approved artwork's hashes shortened); a
 * form to make a proof of chosen lines (the proof document's file id, a message, the customer
 * notified by email); and revoking a proof's link. Proofs are read and made with the orders scopes.
 */
import { useState } from 'preact/hooks';
import type { Order, Proof, ProofCreated } from '../../api/types';
import { StatusBadge } from '../../components/badges';
import { Card } from '../../components/card';
import { CopyButton } from '../../components/copy-button';
import { describedBy, Field } from '../../components/field';
import { MessageNotice, Notice, type Message } from '../../components/notice';
import { answered, errorText, ListState } from '../../components/states';
import { DateTime } from '../../components/time';
import { useAsync } from '../../hooks/use-async';
import { canWrite } from '../../lib/access';
import { decidedByText, hasLiveLink, proofableLines, proofRequest, proofStateView, shortHash, type ProofForm } from '../../lib/proofs';
import { useSession } from '../../session-context';

/** Proofs can be made while the order is pending, confirmed or in production (the API's rule). */
const PROOFABLE = ['pending', 'confirmed', 'in_production'];

export function OrderProofs({ order, revision, onChanged }: { order: Order; revision: number; onChanged: () => void }) {
  const { account, client } = useSession();
  const writable = canWrite(account, 'orders');
  const proofs = useAsync(() => client.listProofs(order.id), [client, order.id, revision]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ProofCreated>();
  const [message, setMessage] = useState<Message>();
  const [busy, setBusy] = useState<number>();
  const canMake = writable && PROOFABLE.includes(order.status) && proofableLines(order.items).length > 0;

  async function revoke(proof: Proof) {
    setBusy(proof.id);
    setMessage(undefined);
    try {
      await client.revokeProofLink(proof.id);
      setMessage({ tone: 'success', text: `The link of proof ${proof.id} is revoked: it no longer opens.` });
      await proofs.reload(true);
    } catch (caught) {
      setMessage({ tone: 'danger', text: `Proof ${proof.id}: ${errorText(caught)}` });
    }
    setBusy(undefined);
  }

  return (
    <Card
      id="proofs"
      title="Proofs"
      actions={
        canMake &&
        !creating && (
          <button type="button" class="btn btn-primary btn-small" onClick={() => setCreating(true)}>
            Create proof
          </button>
        )
      }
    >
      <MessageNotice message={message} onDismiss={() => setMessage(undefined)} />
      {created && <ProofLinkReveal created={created} onDone={() => setCreated(undefined)} />}
      {creating && (
        <ProofCreateForm
          order={order}
          onCancel={() => setCreating(false)}
          onCreated={(proof) => {
            setCreating(false);
            setCreated(proof);
            void proofs.reload(true);
            onChanged();
          }}
        />
      )}
      {answered(proofs.error, 403) ? (
        <p class="muted">Reading proofs needs orders:read.</p>
      ) : (
        <ListState
          state={proofs}
          what="proofs"
          empty={<p class="muted">No proofs yet. A proof shows the customer what will be printed and asks for approval.</p>}
        >
          {(found) => (
            <ul class="list proof-list">
              {found.items.map((proof) => (
                <ProofItem key={proof.id} proof={proof} writable={writable} busy={busy === proof.id} onRevoke={() => void revoke(proof)} />
              ))}
            </ul>
          )}
        </ListState>
      )}
    </Card>
  );
}

function ProofItem({ proof, writable, busy, onRevoke }: { proof: Proof; writable: boolean; busy: boolean; onRevoke: () => void }) {
  const decision = proof.decisions[0];
  return (
    <li data-proof={proof.id}>
      <div>
        <strong>Proof {proof.id}</strong> <StatusBadge view={proofStateView(proof.state)} />{' '}
        <span class="muted">
          lines {proof.line_ids.join(', ')} · made <DateTime iso={proof.created_at} />
          {proof.state === 'pending' && (
            <>
              {' '}
              · expires <DateTime iso={proof.expires_at} />
            </>
          )}
          {!proof.requires_approval && ' · no approval required'}
        </span>
      </div>
      {proof.message && <p class="cell-sub">“{proof.message}”</p>}
      {decision && (
        <dl class="proof-decision" data-decision={decision.decision}>
          <dt>{decision.decision === 'approved' ? 'Approved by' : 'Changes requested by'}</dt>
          <dd>
            {decidedByText(decision)}, <DateTime iso={decision.decided_at} />
          </dd>
          {decision.comment && (
            <>
              <dt>Comment</dt>
              <dd>{decision.comment}</dd>
            </>
          )}
          <dt>{decision.decision === 'approved' ? 'Approved artwork' : 'Artwork'}</dt>
          <dd>
            <ul class="hash-list">
              {decision.artwork.map((file) => (
                <li key={`${file.line_id}-${file.file_id}`}>
                  line {file.line_id}: {file.filename}{' '}
                  <code class="mono" title={file.sha256}>
                    {shortHash(file.sha256)}
                  </code>
                </li>
              ))}
            </ul>
          </dd>
        </dl>
      )}
      {writable && hasLiveLink(proof) && (
        <button
          type="button"
          class="btn btn-secondary btn-small"
          disabled={busy}
          aria-label={`Revoke the link of proof ${proof.id}`}
          onClick={onRevoke}
        >
          {busy ? 'Revoking…' : 'Revoke link'}
        </button>
      )}
      {proof.link_revoked_at && (
        <p class="muted">
          Link revoked <DateTime iso={proof.link_revoked_at} />
        </p>
      )}
    </li>
  );
}

/** The new proof's link, shown once: the API never shows its token again. */
function ProofLinkReveal({ created, onDone }: { created: ProofCreated; onDone: () => void }) {
  return (
    <Notice tone="info" title={`Proof ${created.id} made — its link is shown only now`}>
      <p>
        <code class="mono">{created.link.url}</code> <CopyButton text={created.link.url} label="Copy link" />
      </p>
      <p>{created.notified ? 'The link was emailed to the customer.' : 'The link was not emailed: send it to the customer yourself.'}</p>
      <button type="button" class="btn btn-secondary btn-small" onClick={onDone}>
        Done
      </button>
    </Notice>
  );
}

function ProofCreateForm({
  order,
  onCancel,
  onCreated,
}: {
  order: Order;
  onCancel: () => void;
  onCreated: (created: ProofCreated) => void;
}) {
  const { client } = useSession();
  const lines = proofableLines(order.items);
  const [form, setForm] = useState<ProofForm>({ lineIds: lines.map((line) => line.id), fileId: '', message: '', notify: true });
  const [problems, setProblems] = useState<Record<string, string>>({});
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const update = <K extends keyof ProofForm>(key: K, value: ProofForm[K]) => setForm((current) => ({ ...current, [key]: value }));

  async function submit(event: Event) {
    event.preventDefault();
    const request = proofRequest(form);
    if ('problems' in request) {
      setProblems(request.problems);
      return;
    }
    setProblems({});
    setError(undefined);
    setBusy(true);
    try {
      onCreated(await client.createProof(order.id, request.input));
    } catch (caught) {
      setError(caught);
      setBusy(false);
    }
  }

  return (
    <form class="proof-form" aria-label="Create a proof" onSubmit={(event) => void submit(event)}>
      {error !== undefined && <Notice tone="danger">{errorText(error)}</Notice>}
      <fieldset class="field" aria-describedby={problems.line_ids ? 'proof-lines-error' : undefined}>
        <legend class="field-label">Lines</legend>
        {lines.map((line) => (
          <label key={line.id} class="checkbox">
            <input
              type="checkbox"
              name="line_ids"
              value={line.id}
              checked={form.lineIds.includes(line.id)}
              onChange={(event) =>
                update('lineIds', event.currentTarget.checked ? [...form.lineIds, line.id] : form.lineIds.filter((id) => id !== line.id))
              }
            />{' '}
            {line.id}. {line.description} <span class="muted">({line.files.map((file) => file.filename).join(', ')})</span>
          </label>
        ))}
        {problems.line_ids && (
          <p id="proof-lines-error" class="field-error">
            {problems.line_ids}
          </p>
        )}
      </fieldset>
      <Field
        id="proof-file"
        label="Proof document (file id)"
        hint={
          <>
            A ready file of the shop, e.g. a soft-proof PDF uploaded with <code>POST /v1/files</code>.
          </>
        }
        error={problems.file_id}
      >
        <input
          id="proof-file"
          class="input mono"
          inputMode="numeric"
          value={form.fileId}
          aria-invalid={problems.file_id ? 'true' : undefined}
          aria-describedby={describedBy('proof-file', { hint: true, error: problems.file_id })}
          onInput={(event) => update('fileId', event.currentTarget.value)}
        />
      </Field>
      <Field id="proof-message" label="Message to the customer" optional error={problems.message}>
        <textarea
          id="proof-message"
          class="input"
          rows={2}
          maxLength={2000}
          value={form.message}
          onInput={(event) => update('message', event.currentTarget.value)}
        />
      </Field>
      <label class="checkbox">
        <input type="checkbox" name="notify" checked={form.notify} onChange={(event) => update('notify', event.currentTarget.checked)} />{' '}
        Email the link to the customer
      </label>
      <div class="form-actions">
        <button type="submit" class="btn btn-primary btn-small" disabled={busy}>
          {busy ? 'Creating…' : 'Create proof'}
        </button>
        <button type="button" class="btn btn-secondary btn-small" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </form>
  );
}
