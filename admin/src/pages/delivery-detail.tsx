import { useState } from 'preact/hooks';
import { ApiError } from '../api/client';
import type { DeliveryDetail as Detail } from '../api/types';
import { StatusBadge, StatusCode, TestTag } from '../components/badges';
import { Link } from '../components/link';
import { Notice } from '../components/notice';
import { EmptyState, LoadError, Loading } from '../components/states';
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
    <nav class="breadcrumbs" aria-label="Breadcrumb">
      <Link href={pathFor({ name: 'webhooks' })}>Webhooks</Link>
      <span aria-hidden="true"> / </span>
      <Link href={back}>Webhook {id}</Link>
      <span aria-hidden="true"> / </span>
      <span aria-current="page">Delivery</span>
    </nav>
  );

  if (delivery.loading && !delivery.data) return <Loading label="Loading the delivery…" />;
  if (!delivery.data) {
    if (delivery.error instanceof ApiError && delivery.error.status === 404) {
      return (
        <>
          {crumbs}
          <EmptyState
            title="Delivery not found"
            action={
              <Link href={back} class="btn btn-secondary">
                Back to the webhook
              </Link>
            }
          >
            <p>Delivery history is kept for a limited time, and deleting a webhook removes its history.</p>
          </EmptyState>
        </>
      );
    }
    return <LoadError error={delivery.error} what="the delivery" onRetry={() => void delivery.reload()} />;
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
  const [result, setResult] = useState<{ tone: 'success' | 'danger'; text: string }>();
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
    <section class="card overview" aria-labelledby="delivery-title">
      <div class="overview-head">
        <div class="overview-title">
          <h1 id="delivery-title" class="page-title" tabIndex={-1}>
            <span class="mono">{delivery.event}</span> {delivery.test && <TestTag />}
          </h1>
          <StatusBadge view={view} large />
        </div>
        <p class="page-lead">{view.description}</p>
      </div>
      {result && (
        <Notice tone={result.tone} onDismiss={() => setResult(undefined)}>
          {result.text}
        </Notice>
      )}
      <dl class="facts">
        <div>
          <dt>Delivery id</dt>
          <dd class="mono break">{delivery.id}</dd>
        </div>
        <div>
          <dt>Event id</dt>
          <dd class="mono break">{delivery.event_id}</dd>
        </div>
        <div>
          <dt>Attempts</dt>
          <dd>{delivery.attempt_count}</dd>
        </div>
        <div>
          <dt>Last response</dt>
          <dd>{delivery.attempt_count === 0 ? '—' : <StatusCode code={delivery.last_status_code} />}</dd>
        </div>
        <div>
          <dt>Created</dt>
          <dd>
            <DateTime iso={delivery.created_at} />
          </dd>
        </div>
        <div>
          <dt>Next retry</dt>
          <dd>
            <RelativeTime iso={delivery.next_attempt_at} now={now} />
          </dd>
        </div>
        {delivery.last_error && (
          <div class="fact-wide">
            <dt>Last error</dt>
            <dd class="mono break">{delivery.last_error}</dd>
          </div>
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
    </section>
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
        <table class="table responsive" aria-label="Attempts">
          <thead>
            <tr>
              <th scope="col" class="num">
                #
              </th>
              <th scope="col">Time</th>
              <th scope="col">Status code</th>
              <th scope="col" class="num">
                Duration
              </th>
              <th scope="col">Error</th>
              <th scope="col">Response</th>
            </tr>
          </thead>
          <tbody>
            {attempts.map((attempt) => (
              <tr key={attempt.attempt} data-attempt={attempt.attempt}>
                <td data-label="Attempt" class="num">
                  {attempt.attempt}
                </td>
                <td data-label="Time">
                  <DateTime iso={attempt.attempted_at} />
                </td>
                <td data-label="Status code">
                  <StatusCode code={attempt.status_code} />
                </td>
                <td data-label="Duration" class="num">
                  {formatDuration(attempt.duration_ms)}
                </td>
                <td data-label="Error">{attempt.error ? <span class="break">{attempt.error}</span> : <span class="muted">—</span>}</td>
                <td data-label="Response" class="cell-response">
                  {attempt.response_body ? <pre class="excerpt">{attempt.response_body}</pre> : <span class="muted">—</span>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
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
