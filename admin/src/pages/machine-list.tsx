import { ApiError } from '../api/client';
import type { Machine } from '../api/types';
import { StatusBadge } from '../components/badges';
import { Link } from '../components/link';
import { ScopePage } from '../components/scope-notice';
import { EmptyState, LoadError, Loading } from '../components/states';
import { useAsync } from '../hooks/use-async';
import { useInterval } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canRead } from '../lib/access';
import { pathFor } from '../lib/routes';
import { machineStatusView, machineTypeLabel } from '../lib/shop-status';
import { useSession } from '../session-context';

const REFRESH_MS = 10_000;

export function MachineList() {
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
        <div class="cell-sub">{machineTypeLabel(machine.type)}</div>
      </td>
      <td data-label="State">
        <StatusBadge view={machineStatusView(machine.status)} />
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
