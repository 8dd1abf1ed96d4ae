import { ApiError } from '../api/client';
import { StatusBadge } from '../components/badges';
import { Link } from '../components/link';
import { ScopePage } from '../components/scope-notice';
import { EmptyState, LoadError, Loading, errorText } from '../components/states';
import { DateTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useInterval } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canRead } from '../lib/access';
import { formatDateTime } from '../lib/format';
import { pathFor } from '../lib/routes';
import { formatDate, isOverdueDate, jobStatusView, machineStatusView, machineTypeLabel, priorityLabel } from '../lib/shop-status';
import { useSession } from '../session-context';

const REFRESH_MS = 10_000;

/** One machine: its running job and scheduled jobs, with estimated windows (GET …/machines/{id}/queue). */
export function MachineDetail({ id }: { id: number }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'production');
  const queue = useAsync(() => (readable ? client.machineQueue(id) : Promise.resolve(undefined)), [client, id, readable]);
  useTitle(queue.data ? queue.data.machine.name : 'Machine');
  useInterval(() => void queue.reload(true), REFRESH_MS, readable);
  if (!readable || (queue.error instanceof ApiError && queue.error.status === 403))
    return <ScopePage account={account} area="production" title="Machine" />;
  if (queue.loading && !queue.data) return <Loading label="Loading the machine's queue…" />;
  if (!queue.data) {
    if (queue.error instanceof ApiError && queue.error.status === 404)
      return (
        <EmptyState
          title="Machine not found"
          action={
            <Link href={pathFor({ name: 'machines' })} class="btn btn-secondary">
              Back to machines
            </Link>
          }
        />
      );
    return <LoadError error={queue.error} what="the machine's queue" onRetry={() => void queue.reload()} />;
  }
  const { machine, entries, as_of: asOf, has_more: hasMore } = queue.data;
  return (
    <>
      <nav class="breadcrumbs" aria-label="Breadcrumb">
        <Link href={pathFor({ name: 'production' })}>Production</Link>
        <span aria-hidden="true"> / </span>
        <Link href={pathFor({ name: 'machines' })}>Machines</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">{machine.name}</span>
      </nav>
      <section class="card overview" aria-labelledby="machine-title">
        <div class="overview-title">
          <h1 id="machine-title" class="page-title" tabIndex={-1}>
            {machine.name}
          </h1>
          <StatusBadge view={machineStatusView(machine.status)} large />
        </div>
        <dl class="facts">
          <div>
            <dt>Type</dt>
            <dd>{machineTypeLabel(machine.type)}</dd>
          </div>
          <div>
            <dt>Speed</dt>
            <dd>{machine.speed_per_hour.toLocaleString('en-GB')} per hour</dd>
          </div>
          <div>
            <dt>Setup</dt>
            <dd>{machine.setup_minutes} min per job</dd>
          </div>
          <div>
            <dt>Capabilities</dt>
            <dd>
              {[
                machine.capabilities.max_sheet_width_mm && machine.capabilities.max_sheet_height_mm
                  ? `${machine.capabilities.max_sheet_width_mm} × ${machine.capabilities.max_sheet_height_mm} mm`
                  : '',
                machine.capabilities.colors ? `${machine.capabilities.colors} colours` : '',
                machine.capabilities.duplex ? 'duplex' : '',
                ...Object.entries(machine.capabilities.other).map(([name, value]) => `${name}: ${value}`),
              ]
                .filter(Boolean)
                .join(' · ') || <span class="muted">—</span>}
            </dd>
          </div>
        </dl>
        <p>
          <Link href={`${pathFor({ name: 'production' })}?machine=${machine.id}`} class="btn btn-secondary btn-small">
            Board for this machine
          </Link>
        </p>
      </section>
      <section class="card" aria-labelledby="queue-title">
        <div class="card-header">
          <h2 id="queue-title" class="card-title">
            Queue
          </h2>
          <span class="muted">Estimated from {formatDateTime(asOf)}</span>
        </div>
        {queue.error !== undefined && <p class="field-error">Refreshing failed: {errorText(queue.error)}</p>}
        {entries.length === 0 ? (
          <p class="muted">Nothing running or scheduled on this machine.</p>
        ) : (
          <table class="table responsive" aria-label={`Queue of ${machine.name}`}>
            <thead>
              <tr>
                <th scope="col" class="num">
                  #
                </th>
                <th scope="col">Job</th>
                <th scope="col">Status</th>
                <th scope="col">Estimated start</th>
                <th scope="col">Estimated end</th>
              </tr>
            </thead>
            <tbody>
              {entries.map((entry) => (
                <tr key={entry.job.id} data-queue-job={entry.job.id}>
                  <td data-label="#" class="num">
                    {entry.position}
                  </td>
                  <td data-label="Job" class="cell-main">
                    <Link href={pathFor({ name: 'order', id: entry.job.order_id })} class="mono">
                      {entry.job.order_number}
                    </Link>{' '}
                    Job {entry.job.id}: {entry.job.description} × {entry.job.quantity.toLocaleString('en-GB')}
                    <div class="cell-sub">
                      {priorityLabel(entry.job.priority)} · due{' '}
                      <span class={isOverdueDate(entry.job.due_date) ? 'overdue' : undefined}>
                        {formatDate(entry.job.due_date)}
                        {isOverdueDate(entry.job.due_date) && ' (overdue)'}
                      </span>{' '}
                      · {entry.estimated_minutes} min
                    </div>
                  </td>
                  <td data-label="Status">
                    <StatusBadge view={jobStatusView(entry.job.status)} />
                  </td>
                  <td data-label="Estimated start">
                    <DateTime iso={entry.estimated_start} />
                  </td>
                  <td data-label="Estimated end">
                    <DateTime iso={entry.estimated_end} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        )}
        {hasMore && <p class="muted">More scheduled jobs follow the first 100.</p>}
      </section>
    </>
  );
}
