import { ApiError } from '../api/client';
import type { Delivery, Webhook } from '../api/types';
import { ActiveBadge, StatusBadge } from '../components/badges';
import { Link } from '../components/link';
import { EmptyState, LoadError, Loading } from '../components/states';
import { RelativeTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useNow } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canReadWebhooks, canWriteWebhooks } from '../lib/access';
import { deliveryStatusView } from '../lib/delivery-status';
import { summarizeEvents } from '../lib/events';
import { pathFor } from '../lib/routes';
import { useSession } from '../session-context';
import { WebhooksScopePage } from '../components/scope-notice';

export function WebhookList() {
  const { account, client } = useSession();
  useTitle('Webhooks');
  const readable = canReadWebhooks(account);
  const list = useAsync(() => (readable ? client.listWebhooks() : Promise.resolve(undefined)), [client, readable]);
  const now = useNow();

  if (!readable) return <WebhooksScopePage account={account} />;
  const forbidden = list.error instanceof ApiError && list.error.status === 403;
  if (forbidden) return <WebhooksScopePage account={account} />;
  const writable = canWriteWebhooks(account);

  return (
    <>
      <div class="page-header">
        <div>
          <h1 class="page-title" tabIndex={-1}>
            Webhooks
          </h1>
          <p class="page-lead">
            Your endpoints receive a signed POST for every subscribed event in {account.mode === 'test' ? 'test' : 'live'} mode, retried on
            failure.
          </p>
        </div>
        {writable && list.data && list.data.items.length > 0 && (
          <Link href={pathFor({ name: 'webhook-new' })} class="btn btn-primary">
            + Add webhook
          </Link>
        )}
      </div>

      {list.loading && <Loading label="Loading webhooks…" />}
      {!list.loading && list.error !== undefined && !list.data && (
        <LoadError error={list.error} what="the webhooks" onRetry={() => void list.reload()} />
      )}
      {list.data && list.data.items.length === 0 && (
        <EmptyState
          title="No webhooks yet"
          action={
            writable ? (
              <Link href={pathFor({ name: 'webhook-new' })} class="btn btn-primary">
                + Add your first webhook
              </Link>
            ) : (
              <p class="muted">This key can read webhooks but not create them (needs webhooks:write).</p>
            )
          }
        >
          <p>
            Add an endpoint URL and choose events — orders, invoices, production, shipments and more — to be notified the moment they
            happen.
          </p>
        </EmptyState>
      )}
      {list.data && list.data.items.length > 0 && (
        <div class="card table-card">
          <table class="table responsive" aria-label="Webhook registrations">
            <thead>
              <tr>
                <th scope="col">Endpoint</th>
                <th scope="col">Events</th>
                <th scope="col">State</th>
                <th scope="col">Last delivery</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data.items.map((webhook) => (
                <WebhookRow key={webhook.id} webhook={webhook} now={now} />
              ))}
            </tbody>
          </table>
          {list.data.pagination.total > list.data.items.length && (
            <p class="table-foot muted">
              Showing {list.data.items.length} of {list.data.pagination.total}.
            </p>
          )}
        </div>
      )}
    </>
  );
}

function WebhookRow({ webhook, now }: { webhook: Webhook; now: number }) {
  const href = pathFor({ name: 'webhook', id: webhook.id });
  return (
    <tr>
      <td data-label="Endpoint" class="cell-main">
        <Link href={href} class="url-link">
          {webhook.url}
        </Link>
        {webhook.description && <div class="cell-sub">{webhook.description}</div>}
      </td>
      <td data-label="Events">
        <span title={webhook.events.join(', ')}>{summarizeEvents(webhook.events)}</span>
      </td>
      <td data-label="State">
        <ActiveBadge active={webhook.active} />
      </td>
      <td data-label="Last delivery">
        <LastDelivery webhook={webhook} now={now} />
      </td>
      <td class="cell-actions">
        <Link href={href} class="btn btn-secondary btn-small" aria-label={`Manage ${webhook.url}`}>
          Manage
        </Link>
      </td>
    </tr>
  );
}

type LastDeliveryView = Pick<Delivery, 'status' | 'attempt_count' | 'created_at'> & { last_attempt_at?: string | null };

/** The newest delivery of a registration: the first entry of its history (newest first, one item). */
function LastDelivery({ webhook, now }: { webhook: Webhook; now: number }) {
  const { client } = useSession();
  const fetched = useAsync<LastDeliveryView | null>(
    async () => (await client.listDeliveries(webhook.id, { page: 1 }, 1)).items[0] ?? null,
    [client, webhook.id],
  );
  if (fetched.loading) return <span class="muted">…</span>;
  if (fetched.error) return <span class="muted">Unavailable</span>;
  const last = fetched.data;
  if (!last) return <span class="muted">No deliveries yet</span>;
  return (
    <span class="stack">
      <StatusBadge view={deliveryStatusView(last)} />
      <RelativeTime iso={last.last_attempt_at ?? last.created_at} now={now} />
    </span>
  );
}
