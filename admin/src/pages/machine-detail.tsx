import { StatusBadge } from '../components/badges';
import { Breadcrumbs } from '../components/breadcrumbs';
import { Card, Overview } from '../components/card';
import { DataTable } from '../components/data-table';
import { Fact } from '../components/facts';
import { Link } from '../components/link';
import { ScopePage } from '../components/scope-notice';
import { answered, errorText, NotFound, Unloaded } from '../components/states';
import { DateTime } from '../components/time';
import { useAsync } from '../hooks/use-async';
import { useInterval } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canRead } from '../lib/access';
import { formatDateTime } from '../lib/format';
import { pathFor } from '../lib/routes';
import { formatDate, isOverdueDate, jobStatusView, machineStatusView, machineTypeLabel, priorityLabel } from '../lib/shop-status';
import { useSession } from '../session-context';

/** How often the queue is read again while the page is open (as the machine list). */
const REFRESH_MS = 10_000;

/** One machine: its running job and scheduled jobs, with estimated windows (GET …/machines/{id}/queue). */
export function MachineDetail({ id }: { id: number }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'production');
  const queue = useAsync(() => (readable ? client.machineQueue(id) : Promise.resolve(undefined)), [client, id, readable]);
  useTitle(queue.data ? queue.data.machine.name : 'Machine');
  useInterval(() => void queue.reload(true), REFRESH_MS, readable);
  if (!readable || answered(queue.error, 403)) return <ScopePage account={account} area="production" title="Machine" />;
  if (!queue.data) {
    return (
      <Unloaded
        state={queue}
        what="the machine's queue"
        notFound={<NotFound title="Machine not found" back={{ href: pathFor({ name: 'machines' }), label: 'Back to machines' }} />}
      />
    );
  }
  const { machine, entries, as_of: asOf, has_more: hasMore } = queue.data;
  const capabilities = machine.capabilities;
  return (
    <>
      <Breadcrumbs
        trail={[
          { href: pathFor({ name: 'production' }), label: 'Production' },
          { href: pathFor({ name: 'machines' }), label: 'Machines' },
        ]}
        current={machine.name}
      />
      <Overview id="machine" title={machine.name} badge={<StatusBadge view={machineStatusView(machine.status)} large />}>
        <dl class="facts">
          <Fact label="Type">{machineTypeLabel(machine.type)}</Fact>
          <Fact label="Speed">{machine.speed_per_hour.toLocaleString('en-GB')} per hour</Fact>
          <Fact label="Setup">{machine.setup_minutes} min per job</Fact>
          <Fact label="Capabilities">
            {[
              capabilities.max_sheet_width_mm && capabilities.max_sheet_height_mm
                ? `${capabilities.max_sheet_width_mm} × ${capabilities.max_sheet_height_mm} mm`
                : '',
              capabilities.colors ? `${capabilities.colors} colours` : '',
              capabilities.duplex ? 'duplex' : '',
              ...Object.entries(capabilities.other).map(([name, value]) => `${name}: ${value}`),
            ]
              .filter(Boolean)
              .join(' · ') || <span class="muted">—</span>}
          </Fact>
        </dl>
        <p>
          <Link href={`${pathFor({ name: 'production' })}?machine=${machine.id}`} class="btn btn-secondary btn-small">
            Board for this machine
          </Link>
        </p>
      </Overview>
      <Card id="queue" title="Queue" actions={<span class="muted">Estimated from {formatDateTime(asOf)}</span>}>
        {queue.error !== undefined && <p class="field-error">Refreshing failed: {errorText(queue.error)}</p>}
        {entries.length === 0 ? (
          <p class="muted">Nothing running or scheduled on this machine.</p>
        ) : (
          <DataTable
            label={`Queue of ${machine.name}`}
            rows={entries}
            rowKey={(entry) => entry.job.id}
            rowAttributes={(entry) => ({ 'data-queue-job': entry.job.id })}
            columns={[
              { label: '#', class: 'num', cell: (entry) => entry.position },
              {
                label: 'Job',
                class: 'cell-main',
                cell: ({ job, estimated_minutes: minutes }) => (
                  <>
                    <Link href={pathFor({ name: 'order', id: job.order_id })} class="mono">
                      {job.order_number}
                    </Link>{' '}
                    Job {job.id}: {job.description} × {job.quantity.toLocaleString('en-GB')}
                    <div class="cell-sub">
                      {priorityLabel(job.priority)} · due{' '}
                      <span class={isOverdueDate(job.due_date) ? 'overdue' : undefined}>
                        {formatDate(job.due_date)}
                        {isOverdueDate(job.due_date) && ' (overdue)'}
                      </span>{' '}
                      · {minutes} min
                    </div>
                  </>
                ),
              },
              { label: 'Status', cell: (entry) => <StatusBadge view={jobStatusView(entry.job.status)} /> },
              { label: 'Estimated start', cell: (entry) => <DateTime iso={entry.estimated_start} /> },
              { label: 'Estimated end', cell: (entry) => <DateTime iso={entry.estimated_end} /> },
            ]}
          />
        )}
        {hasMore && <p class="muted">More scheduled jobs follow the first 100.</p>}
      </Card>
    </>
  );
}
