import { ApiError } from '../api/client';
import type { Machine, MachineStatus } from '../api/types';
import { StatusBadge } from '../components/badges';
import { Link } from '../components/link';
import { ScopePage } from '../components/scope-notice';
import { EmptyState, LoadError, Loading, errorText } from '../components/states';
import { DateTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useInterval } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canRead } from '../lib/access';
import type { StatusView } from '../lib/delivery-status';
import { formatDateTime } from '../lib/format';
import { pathFor } from '../lib/routes';
import { formatDate, isOverdueDate, jobStatusView, priorityLabel } from '../lib/shop-status';
import { useSession } from '../session-context';

const machineViews: Record<MachineStatus, StatusView> = {
  idle: { key: 'idle', label: 'Idle', symbol: '○', tone: 'neutral', description: 'Free: the next job can start.' },
  running: { key: 'running', label: 'Running', symbol: '▶', tone: 'success', description: 'A job is printing or finishing on it.' },
  maintenance: {
    key: 'maintenance',
    label: 'Maintenance',
    symbol: '⚒',
    tone: 'warning',
    description: 'No job can start until it is idle.',
  },
  offline: { key: 'offline', label: 'Offline', symbol: '✕', tone: 'danger', description: 'No job can start until it is idle.' },
};

const typeLabel = (type: string) => type.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase());

const REFRESH_MS = 10_000;

export function MachinesList() {
  const { account, client } = useSession();
  useTitle('Machines');
  const readable = canRead(account, 'production');
  const machines = useAsync(() => (readable ? client.listMachines() : Promise.resolve(undefined)), [client, readable]);
  useInterval(() => void machines.reload(true), REFRESH_MS, readable);
  if (!readable || (machines.error instanceof ApiError && machines.error.status === 403))
    return <ScopePage account={account} area="production" title="Machines" />;
  return (
    <>
      <nav class="breadcrumbs" aria-label="Breadcrumb">
        <Link href={pathFor({ name: 'production' })}>Production</Link>
        <span aria-hidden="true"> / </span>
        <span aria-current="page">Machines</span>
      </nav>
      <div class="page-header">
        <div>
          <h1 class="page-title" tabIndex={-1}>
            Machines
          </h1>
          <p class="page-lead">Each machine's state and running job; open one for its queue with estimated times.</p>
        </div>
      </div>
      {machines.loading && !machines.data && <Loading label="Loading machines…" />}
      {!machines.loading && !machines.data && (
        <LoadError error={machines.error} what="the machines" onRetry={() => void machines.reload()} />
      )}
      {machines.data && machines.data.items.length === 0 && (
        <EmptyState title="No machines yet">
          <p>
            Add them with <code>POST /v1/production/machines</code> (name, type, speed per hour, setup minutes).
          </p>
        </EmptyState>
      )}
      {machines.data && machines.data.items.length > 0 && (
        <div class="card table-card">
          <table class="table responsive" aria-label="Machines">
            <thead>
              <tr>
                <th scope="col">Machine</th>
                <th scope="col">State</th>
                <th scope="col">Running job</th>
                <th scope="col" class="num">
                  Speed
                </th>
                <th scope="col">
                  <span class="visually-hidden">Queue</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {machines.data.items.map((machine) => (
                <MachineRow key={machine.id} machine={machine} />
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}

function MachineRow({ machine }: { machine: Machine }) {
  const href = pathFor({ name: 'machine', id: machine.id });
  return (
    <tr data-machine={machine.id}>
      <td data-label="Machine" class="cell-main">
        <Link href={href}>{machine.name}</Link>
        <div class="cell-sub">{typeLabel(machine.type)}</div>
      </td>
      <td data-label="State">
        <StatusBadge view={machineViews[machine.status]} />
      </td>
      <td data-label="Running job">{machine.current_job_id ? `Job ${machine.current_job_id}` : <span class="muted">—</span>}</td>
      <td data-label="Speed" class="num">
        {machine.speed_per_hour.toLocaleString('en-GB')}/h · setup {machine.setup_minutes} min
      </td>
      <td class="cell-actions">
        <Link href={href} class="btn btn-secondary btn-small" aria-label={`Queue of ${machine.name}`}>
          Queue
        </Link>
      </td>
    </tr>
  );
}

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
          <StatusBadge view={machineViews[machine.status]} large />
        </div>
        <dl class="facts">
          <div>
            <dt>Type</dt>
            <dd>{typeLabel(machine.type)}</dd>
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
