import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { DeliveryDetail as Detail } from '../api/types';
import { StatusBadge, StatusCode, TestTag } from '../components/badges';
import { Breadcrumbs } from '../components/breadcrumbs';
import { Overview } from '../components/card';
import { DataTable } from '../components/data-table';
import { Fact } from '../components/facts';
import { MessageNotice, type Message } from '../components/notice';
import { EmptyState, NotFound, Unloaded } from '../components/states';
import { DateTime, RelativeTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useInterval, useNow } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canWriteWebhooks } from '../lib/access';
import { deliveryStatusView, isInFlight } from '../lib/delivery-status';
import { describeError } from '../lib/errors';
import { formatDuration, prettyJson } from '../lib/format';
import { pathFor } from '../lib/routes';
import { useSession } from '../session-context';

const POLL_MS = 2000;

export function DeliveryDetail({ id, deliveryId }: { id: number; deliveryId: string }) {
  useTitle(`Delivery ${deliveryId}`);
  const { client } = useSession();
  const delivery = useAsync(() => client.getDelivery(id, deliveryId), [client, id, deliveryId]);
  const [watching, setWatching] = useState(false);
  const live = watching || (delivery.data ? isInFlight(delivery.data) : false);
  useInterval(
    () =>
      void delivery.reload(true).then(() => {
        setWatching(false);
      }),
    POLL_MS,
    live,
  );

  const back = pathFor({ name: 'webhook', id });
  const crumbs = (
    <Breadcrumbs
      trail={[
        { href: pathFor({ name: 'webhooks' }), label: 'Webhooks' },
        { href: back, label: `Webhook ${id}` },
      ]}
      current="Delivery"
    />
  );

  if (!delivery.data) {
    return (
      <Unloaded
        state={delivery}
        what="the delivery"
        notFound={
          <>
            {crumbs}
            <NotFound title="Delivery not found" back={{ href: back, label: 'Back to the webhook' }}>
              <p>Delivery history is kept for a limited time, and deleting a webhook removes its history.</p>
            </NotFound>
          </>
        }
      />
    );
  }
  return (
    <>
      {crumbs}
      <Summary delivery={delivery.data} live={live} onResent={() => setWatching(true)} reload={() => delivery.reload(true)} />
      <Attempts delivery={delivery.data} />
      <Payload delivery={delivery.data} />
    </>
  );
}

function Summary({
  delivery,
  live,
  onResent,
  reload,
}: {
  delivery: Detail;
  live: boolean;
  onResent: () => void;
  reload: () => Promise<void>;
}) {
  const { client, account } = useSession();
  const now = useNow(5000);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Message>();
  const view = deliveryStatusView(delivery);

  async function resend() {
    setBusy(true);
    setResult(undefined);
    try {
      await client.redeliver(delivery.webhook_id, delivery.id);
      setResult({ tone: 'success', text: 'Resent: a new attempt is on its way; it appears under Attempts.' });
      onResent();
      await reload();
    } catch (caught) {
      setResult({ tone: 'danger', text: caught instanceof ApiError ? describeError(caught) : String(caught) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <Overview
      id="delivery"
      title={
        <>
          <span class="mono">{delivery.event}</span> {delivery.test && <TestTag />}
        </>
      }
      badge={<StatusBadge view={view} large />}
      lead={view.description}
    >
      <MessageNotice message={result} onDismiss={() => setResult(undefined)} />
      <dl class="facts">
        <Fact label="Delivery id" class="mono break">
          {delivery.id}
        </Fact>
        <Fact label="Event id" class="mono break">
          {delivery.event_id}
        </Fact>
        <Fact label="Attempts">{delivery.attempt_count}</Fact>
        <Fact label="Last response">{delivery.attempt_count === 0 ? '—' : <StatusCode code={delivery.last_status_code} />}</Fact>
        <Fact label="Created">
          <DateTime iso={delivery.created_at} />
        </Fact>
        <Fact label="Next retry">
          <RelativeTime iso={delivery.next_attempt_at} now={now} />
        </Fact>
        {delivery.last_error && (
          <Fact label="Last error" wide class="mono break">
            {delivery.last_error}
          </Fact>
        )}
      </dl>
      <div class="actions">
        {canWriteWebhooks(account) && (
          <button type="button" class="btn btn-primary" onClick={resend} disabled={busy}>
            {busy ? 'Resending…' : 'Resend'}
          </button>
        )}
        {live && (
          <span class="live">
            <span class="live-dot" aria-hidden="true" /> Refreshing automatically
          </span>
        )}
      </div>
    </Overview>
  );
}

function Attempts({ delivery }: { delivery: Detail }) {
  const attempts = [...delivery.attempts].sort((a, b) => b.attempt - a.attempt);
  return (
    <section class="card" aria-labelledby="attempts-title">
      <h2 id="attempts-title" class="card-title">
        Attempts <span class="muted">(newest first)</span>
      </h2>
      {attempts.length === 0 ? (
        <EmptyState title="No attempts yet">
          <p>The first attempt is on its way.</p>
        </EmptyState>
      ) : (
        <DataTable
          label="Attempts"
          rows={attempts}
          rowKey={(attempt) => attempt.attempt}
          rowAttributes={(attempt) => ({ 'data-attempt': attempt.attempt })}
          columns={[
            { label: '#', cellLabel: 'Attempt', class: 'num', cell: (attempt) => attempt.attempt },
            { label: 'Time', cell: (attempt) => <DateTime iso={attempt.attempted_at} /> },
            { label: 'Status code', cell: (attempt) => <StatusCode code={attempt.status_code} /> },
            { label: 'Duration', class: 'num', cell: (attempt) => formatDuration(attempt.duration_ms) },
            {
              label: 'Error',
              cell: (attempt) => (attempt.error ? <span class="break">{attempt.error}</span> : <span class="muted">—</span>),
            },
            {
              label: 'Response',
              class: 'cell-response',
              cell: (attempt) =>
                attempt.response_body ? <pre class="excerpt">{attempt.response_body}</pre> : <span class="muted">—</span>,
            },
          ]}
        />
      )}
    </section>
  );
}

function Payload({ delivery }: { delivery: Detail }) {
  return (
    <section class="card" aria-labelledby="payload-title">
      <details class="payload">
        <summary>
          <h2 id="payload-title" class="card-title inline">
            Payload
          </h2>
          <span class="muted"> — the JSON body that was signed and sent</span>
        </summary>
        {delivery.payload ? (
          <pre class="code-block">{prettyJson(delivery.payload)}</pre>
        ) : (
          <p class="muted">No longer available: events are kept for 30 days.</p>
        )}
      </details>
    </section>
  );
}
