import { StatusBadge } from '../components/badges';
import { Breadcrumbs } from '../components/breadcrumbs';
import { DataTable } from '../components/data-table';
import { Link } from '../components/link';
import { PageHeader } from '../components/page-header';
import { ScopePage } from '../components/scope-notice';
import { answered, EmptyState, ListState } from '../components/states';
import { useAsync } from '../hooks/use-async';
import { useInterval } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canRead } from '../lib/access';
import { pathFor } from '../lib/routes';
import { machineStatusView, machineTypeLabel } from '../lib/shop-status';
import { useSession } from '../session-context';

/** How often the machines are read again while the page is open (as a machine's queue). */
const REFRESH_MS = 10_000;

export function MachineList() {
  const { account, client } = useSession();
  useTitle('Machines');
  const readable = canRead(account, 'production');
  const machines = useAsync(() => (readable ? client.listMachines() : Promise.resolve(undefined)), [client, readable]);
  useInterval(() => void machines.reload(true), REFRESH_MS, readable);
  if (!readable || answered(machines.error, 403)) return <ScopePage account={account} area="production" title="Machines" />;
  return (
    <>
      <Breadcrumbs trail={[{ href: pathFor({ name: 'production' }), label: 'Production' }]} current="Machines" />
      <PageHeader title="Machines" lead="Each machine's state and running job; open one for its queue with estimated times." />
      <ListState
        state={machines}
        what="machines"
        empty={
          <EmptyState title="No machines yet">
            <p>
              Add them with <code>POST /v1/production/machines</code> (name, type, speed per hour, setup minutes).
            </p>
          </EmptyState>
        }
      >
        {(found) => (
          <div class="card table-card">
            <DataTable
              label="Machines"
              rows={found.items}
              rowKey={(machine) => machine.id}
              rowAttributes={(machine) => ({ 'data-machine': machine.id })}
              columns={[
                {
                  label: 'Machine',
                  class: 'cell-main',
                  cell: (machine) => (
                    <>
                      <Link href={pathFor({ name: 'machine', id: machine.id })}>{machine.name}</Link>
                      <div class="cell-sub">{machineTypeLabel(machine.type)}</div>
                    </>
                  ),
                },
                { label: 'State', cell: (machine) => <StatusBadge view={machineStatusView(machine.status)} /> },
                {
                  label: 'Running job',
                  cell: (machine) => (machine.current_job_id ? `Job ${machine.current_job_id}` : <span class="muted">—</span>),
                },
                {
                  label: 'Speed',
                  class: 'num',
                  cell: (machine) => (
                    <>
                      {machine.speed_per_hour.toLocaleString('en-GB')}/h · setup {machine.setup_minutes} min
                    </>
                  ),
                },
                {
                  label: 'Queue',
                  actions: true,
                  cell: (machine) => (
                    <Link
                      href={pathFor({ name: 'machine', id: machine.id })}
                      class="btn btn-secondary btn-small"
                      aria-label={`Queue of ${machine.name}`}
                    >
                      Queue
                    </Link>
                  ),
                },
              ]}
            />
          </div>
        )}
      </ListState>
    </>
  );
}
