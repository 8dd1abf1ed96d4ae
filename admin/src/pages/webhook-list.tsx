import type { Delivery, Webhook } from '../api/types';
import { ActiveBadge, StatusBadge } from '../components/badges';
import { DataTable } from '../components/data-table';
import { Link } from '../components/link';
import { PageHeader } from '../components/page-header';
import { WebhooksScopePage } from '../components/scope-notice';
import { answered, EmptyState, ListState } from '../components/states';
import { RelativeTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useNow } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canReadWebhooks, canWriteWebhooks } from '../lib/access';
import { deliveryStatusView } from '../lib/delivery-status';
import { summarizeEvents } from '../lib/events';
import { pathFor } from '../lib/routes';
import { useSession } from '../session-context';

export function WebhookList() {
  const { account, client } = useSession();
  useTitle('Webhooks');
  const readable = canReadWebhooks(account);
  const list = useAsync(() => (readable ? client.listWebhooks() : Promise.resolve(undefined)), [client, readable]);
  const now = useNow();

  if (!readable || answered(list.error, 403)) return <WebhooksScopePage account={account} />;
  const writable = canWriteWebhooks(account);

  return (
    <>
      <PageHeader
        title="Webhooks"
        lead={`Your endpoints receive a signed POST for every subscribed event in ${account.mode === 'test' ? 'test' : 'live'} mode, retried on failure.`}
        actions={
          writable &&
          list.data &&
          list.data.items.length > 0 && (
            <Link href={pathFor({ name: 'webhook-new' })} class="btn btn-primary">
              + Add webhook
            </Link>
          )
        }
      />
      <ListState
        state={list}
        what="webhooks"
        empty={
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
        }
      >
        {(found) => (
          <div class="card table-card">
            <DataTable
              label="Webhook registrations"
              rows={found.items}
              rowKey={(webhook) => webhook.id}
              columns={[
                {
                  label: 'Endpoint',
                  class: 'cell-main',
                  cell: (webhook) => (
                    <>
                      <Link href={pathFor({ name: 'webhook', id: webhook.id })} class="url-link">
                        {webhook.url}
                      </Link>
                      {webhook.description && <div class="cell-sub">{webhook.description}</div>}
                    </>
                  ),
                },
                {
                  label: 'Events',
                  cell: (webhook) => <span title={webhook.events.join(', ')}>{summarizeEvents(webhook.events)}</span>,
                },
                { label: 'State', cell: (webhook) => <ActiveBadge active={webhook.active} /> },
                { label: 'Last delivery', cell: (webhook) => <LastDelivery webhook={webhook} now={now} /> },
                {
                  label: 'Actions',
                  actions: true,
                  cell: (webhook) => (
                    <Link
                      href={pathFor({ name: 'webhook', id: webhook.id })}
                      class="btn btn-secondary btn-small"
                      aria-label={`Manage ${webhook.url}`}
                    >
                      Manage
                    </Link>
                  ),
                },
              ]}
            />
            {found.pagination.total > found.items.length && (
              <p class="table-foot muted">
                Showing {found.items.length} of {found.pagination.total}.
              </p>
            )}
          </div>
        )}
      </ListState>
    </>
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
