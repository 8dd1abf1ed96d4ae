import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { Webhook } from '../api/types';
import { ActiveBadge } from '../components/badges';
import { Breadcrumbs } from '../components/breadcrumbs';
import { Overview } from '../components/card';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DeliveriesPanel } from '../components/deliveries-panel';
import { Fact } from '../components/facts';
import { Link } from '../components/link';
import { MessageNotice, type Message } from '../components/notice';
import { SecretReveal } from '../components/secret-reveal';
import { SendTest } from '../components/send-test';
import { NotFound, Unloaded } from '../components/states';
import { DateTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useTitle } from '../hooks/use-title';
import { canWriteWebhooks } from '../lib/access';
import { describeError } from '../lib/errors';
import { isAllEvents } from '../lib/events';
import { parseDeliveryFilters, pathFor } from '../lib/routes';
import { navigate } from '../router';
import { takeSecret, type RevealedSecret } from '../secret-store';
import { useFlash, useSession } from '../session-context';

/** How long the deliveries keep refreshing after a test event, before its delivery is listed. */
const WATCH_AFTER_SEND_MS = 15_000;

export function WebhookDetail({ id, search }: { id: number; search: string }) {
  useTitle('Webhook');
  const { client } = useSession();
  const webhook = useAsync(() => client.getWebhook(id), [client, id]);
  const [revealed, setRevealed] = useState<RevealedSecret | undefined>(() => takeSecret(id));
  const [watchUntil, setWatchUntil] = useState(0);
  const [refreshToken, setRefreshToken] = useState(0);

  if (!webhook.data) {
    return (
      <Unloaded
        state={webhook}
        what="the webhook"
        notFound={
          <NotFound title="Webhook not found" back={{ href: pathFor({ name: 'webhooks' }), label: 'Back to webhooks' }}>
            <p>It may have been deleted, or it belongs to the other mode (test and live have separate webhooks).</p>
          </NotFound>
        }
      />
    );
  }
  const current = webhook.data;

  return (
    <>
      <Breadcrumbs trail={[{ href: pathFor({ name: 'webhooks' }), label: 'Webhooks' }]} current={`Webhook ${current.id}`} />
      {revealed && <SecretReveal revealed={revealed} onDone={() => setRevealed(undefined)} />}
      <WebhookOverview
        webhook={current}
        onChanged={(next) => webhook.setData(next)}
        onRotated={(secret) => setRevealed({ webhookId: current.id, secret, reason: 'rotated' })}
      />
      <SendTest
        webhook={current}
        disabledReason={current.active ? undefined : 'This webhook is disabled. Enable it to send test events.'}
        onSent={() => {
          setWatchUntil(Date.now() + WATCH_AFTER_SEND_MS);
          setRefreshToken((token) => token + 1);
        }}
      />
      <DeliveriesPanel webhook={current} filters={parseDeliveryFilters(search)} watchUntil={watchUntil} refreshToken={refreshToken} />
    </>
  );
}

type Dialog = 'delete' | 'rotate' | undefined;

function WebhookOverview({
  webhook,
  onChanged,
  onRotated,
}: {
  webhook: Webhook;
  onChanged: (webhook: Webhook) => void;
  onRotated: (secret: string) => void;
}) {
  const { client, account } = useSession();
  const flash = useFlash();
  const writable = canWriteWebhooks(account);
  const [dialog, setDialog] = useState<Dialog>();
  const [busy, setBusy] = useState(false);
  const [dialogError, setDialogError] = useState<string>();
  const [message, setMessage] = useState<Message>();

  const fail = (caught: unknown) => (caught instanceof ApiError ? describeError(caught) : String(caught));
  const closeDialog = () => {
    setDialog(undefined);
    setDialogError(undefined);
  };

  async function toggleActive() {
    setBusy(true);
    setMessage(undefined);
    try {
      const next = await client.updateWebhook(webhook.id, { active: !webhook.active });
      onChanged(next);
      setMessage({
        tone: 'success',
        text: next.active ? 'Webhook enabled: events are delivered again.' : 'Webhook disabled: nothing is sent until you enable it.',
      });
    } catch (caught) {
      setMessage({ tone: 'danger', text: fail(caught) });
    } finally {
      setBusy(false);
    }
  }

  async function confirm() {
    setBusy(true);
    setDialogError(undefined);
    try {
      if (dialog === 'delete') {
        await client.deleteWebhook(webhook.id);
        flash({ tone: 'success', text: `Webhook ${webhook.url} deleted.` });
        navigate(pathFor({ name: 'webhooks' }));
        return;
      }
      const rotated = await client.rotateSecret(webhook.id);
      onChanged(rotated);
      onRotated(rotated.secret);
      setDialog(undefined);
    } catch (caught) {
      setDialogError(fail(caught));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Overview
      id="webhook"
      title={webhook.url}
      titleClass="url-title"
      badge={<ActiveBadge active={webhook.active} />}
      lead={webhook.description}
    >
      <MessageNotice message={message} onDismiss={() => setMessage(undefined)} />
      <dl class="facts">
        <Fact label="Signing secret" class="mono">
          {webhook.secret}
        </Fact>
        <Fact label="Created">
          <DateTime iso={webhook.created_at} />
        </Fact>
        <Fact label="Updated">
          <DateTime iso={webhook.updated_at} />
        </Fact>
        <Fact label="Events" wide>
          {isAllEvents(webhook.events) ? (
            <span>All events, including kinds added later</span>
          ) : (
            <ul class="chips" aria-label="Subscribed events">
              {webhook.events.map((kind) => (
                <li key={kind} class="chip mono">
                  {kind}
                </li>
              ))}
            </ul>
          )}
        </Fact>
      </dl>
      {writable ? (
        <div class="actions" role="group" aria-label="Webhook actions">
          <Link href={pathFor({ name: 'webhook-edit', id: webhook.id })} class="btn btn-secondary">
            Edit
          </Link>
          <button type="button" class="btn btn-secondary" onClick={toggleActive} disabled={busy}>
            {webhook.active ? 'Disable' : 'Enable'}
          </button>
          <button type="button" class="btn btn-secondary" onClick={() => setDialog('rotate')} disabled={busy}>
            Rotate secret
          </button>
          <button type="button" class="btn btn-danger-outline" onClick={() => setDialog('delete')} disabled={busy}>
            Delete
          </button>
        </div>
      ) : (
        <p class="muted">This key can read webhooks but not change them (needs webhooks:write).</p>
      )}
      <ConfirmDialog
        open={dialog === 'delete'}
        title="Delete this webhook?"
        confirmLabel="Delete webhook"
        tone="danger"
        busy={busy}
        error={dialogError}
        onConfirm={confirm}
        onCancel={closeDialog}
      >
        <p>
          <span class="mono break">{webhook.url}</span> stops receiving events at once, and its delivery history is no longer shown. This
          cannot be undone.
        </p>
      </ConfirmDialog>
      <ConfirmDialog
        open={dialog === 'rotate'}
        title="Rotate the signing secret?"
        confirmLabel="Rotate secret"
        busy={busy}
        error={dialogError}
        onConfirm={confirm}
        onCancel={closeDialog}
      >
        <p>
          A new secret is generated and shown once. For 24 hours deliveries carry signatures with both the new and the previous secret, so
          you can update your receiver without missing events.
        </p>
      </ConfirmDialog>
    </Overview>
  );
}
