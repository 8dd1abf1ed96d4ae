import { useState } from 'preact/hooks';
import type { Job, JobStatus, Machine, Page } from '../api/types';
import { StatusBadge } from '../components/badges';
import { Link } from '../components/link';
import { Fact } from '../components/facts';
import { FilterSelect } from '../components/filter-select';
import { MessageNotice, Notice, type Message } from '../components/notice';
import { PageHeader } from '../components/page-header';
import { ReadOnlyNote, ScopePage } from '../components/scope-notice';
import { answered, LoadError, Loading, errorText } from '../components/states';
import { useAsync } from '../hooks/use-async';
import { useInterval } from '../hooks/use-interval';
import { useTitle } from '../hooks/use-title';
import { canRead, canWrite } from '../lib/access';
import { formatDateTime } from '../lib/format';
import { AWAITING_APPROVAL_VIEW, awaitingColumns } from '../lib/proofs';
import { pathFor } from '../lib/routes';
import {
  BOARD_COLUMNS,
  canMoveJob,
  formatDate,
  isOverdueDate,
  jobActionLabel,
  jobStatusView,
  needsMachine,
  nextJobStatuses,
  priorityLabel,
} from '../lib/shop-status';
import { navigate } from '../router';
import { useSession } from '../session-context';

/** How often the board reads the jobs again while it is open (and the tab visible). */
export const BOARD_REFRESH_MS = 5_000;

interface BoardData {
  columns: Map<JobStatus, Page<Job>>;
  machines: Machine[];
  at: number;
}

export function ProductionBoard({ search }: { search: string }) {
  const { account, client } = useSession();
  useTitle('Production');
  const readable = canRead(account, 'production');
  const writable = canWrite(account, 'production');
  const params = new URLSearchParams(search);
  const machineFilter = Number(params.get('machine') ?? '') || undefined;
  // Only the jobs waiting for a proof's approval (`?approval=awaiting`).
  const awaitingOnly = params.get('approval') === 'awaiting';
  const filterPath = (machine: number | undefined, awaiting: boolean) => {
    const query = new URLSearchParams();
    if (machine !== undefined) query.set('machine', String(machine));
    if (awaiting) query.set('approval', 'awaiting');
    const text = query.toString();
    return pathFor({ name: 'production' }) + (text ? `?${text}` : '');
  };

  const board = useAsync<BoardData | undefined>(async () => {
    if (!readable) return undefined;
    const statuses: JobStatus[] = [...BOARD_COLUMNS, 'failed'];
    if (awaitingOnly) {
      // The API lists the waiting jobs alone (no status or machine with it): grouped and filtered here.
      const [machines, waiting] = await Promise.all([client.listMachines(), client.listJobs({ awaiting_approval: true })]);
      return { machines: machines.items, columns: awaitingColumns(waiting.items, statuses, machineFilter), at: Date.now() };
    }
    const [machines, ...pages] = await Promise.all([
      client.listMachines(),
      ...statuses.map((status) => client.listJobs({ status, machine_id: machineFilter })),
    ]);
    return { machines: machines.items, columns: new Map(statuses.map((status, i) => [status, pages[i]!])), at: Date.now() };
  }, [client, readable, machineFilter, awaitingOnly]);

  const [busyJob, setBusyJob] = useState<number>();
  const [dragging, setDragging] = useState<Job>();
  const [message, setMessage] = useState<Message>();

  useInterval(() => void board.reload(true), BOARD_REFRESH_MS, readable && busyJob === undefined && dragging === undefined);

  if (!readable || answered(board.error, 403)) return <ScopePage account={account} area="production" title="Production" />;

  const machines = board.data?.machines ?? [];
  const machineName = (id: number | null) =>
    id === null ? undefined : (machines.find((machine) => machine.id === id)?.name ?? `Machine ${id}`);

  async function act(job: Job, what: () => Promise<Job>, done: (job: Job) => string) {
    setBusyJob(job.id);
    setMessage(undefined);
    let outcome: Message;
    try {
      outcome = { tone: 'success', text: done(await what()) };
    } catch (caught) {
      outcome = { tone: 'danger', text: `Job ${job.id}: ${errorText(caught)}` };
    }
    // The board as it is now, then the message: what it says is on screen when it is read.
    await board.reload(true);
    setMessage(outcome);
    setBusyJob(undefined);
    // Keyboard users stay on the job they moved, now in its new column.
    window.setTimeout(() => document.querySelector<HTMLElement>(`[data-job-card="${job.id}"]`)?.focus(), 0);
  }

  const move = (job: Job, to: JobStatus, machineId?: number) =>
    act(
      job,
      () => client.moveJob(job.id, to, needsMachine(to) && job.machine_id === null ? machineId : undefined),
      (updated) => `Job ${updated.id} (${updated.order_number}) moved to ${jobStatusView(updated.status).label.toLowerCase()}.`,
    );
  const assign = (job: Job, machineId: number) =>
    act(
      job,
      () => client.updateJob(job.id, { machine_id: machineId }),
      (updated) => `Job ${updated.id} assigned to ${machineName(updated.machine_id) ?? 'the machine'}.`,
    );

  const failed = board.data?.columns.get('failed');
  const columns: JobStatus[] = failed && failed.items.length > 0 ? [...BOARD_COLUMNS, 'failed'] : [...BOARD_COLUMNS];

  return (
    <>
      <PageHeader
        title="Production"
        lead="Jobs in queue order (rush first, then by due date). Move a job with its buttons, or drag it to a column it may move to."
        actions={
          <Link href={pathFor({ name: 'machines' })} class="btn btn-secondary">
            Machines and queues
          </Link>
        }
      />
      <form class="filters" aria-label="Filter jobs" onSubmit={(event) => event.preventDefault()}>
        <FilterSelect
          id="board-machine"
          label="Machine"
          value={machineFilter === undefined ? '' : String(machineFilter)}
          options={[
            { value: '', label: 'All machines' },
            ...machines.map((machine) => ({ value: String(machine.id), label: machine.name })),
          ]}
          onChange={(value) => navigate(filterPath(value ? Number(value) : undefined, awaitingOnly), { replace: true })}
        />
        <FilterSelect
          id="board-approval"
          label="Approval"
          value={awaitingOnly ? 'awaiting' : ''}
          options={[
            { value: '', label: 'All jobs' },
            { value: 'awaiting', label: 'Awaiting approval' },
          ]}
          onChange={(value) => navigate(filterPath(machineFilter, value === 'awaiting'), { replace: true })}
        />
        <div class="filter filter-actions">
          <span class="live" aria-live="off">
            <span class="live-dot" aria-hidden="true" /> Refreshing every {BOARD_REFRESH_MS / 1000} s
            {board.data && <span class="muted"> · updated {formatDateTime(new Date(board.data.at).toISOString()).split(', ')[1]}</span>}
          </span>
        </div>
      </form>
      {!writable && <ReadOnlyNote area="production" />}
      <MessageNotice message={message} onDismiss={() => setMessage(undefined)} />
      {board.data && board.error !== undefined && <p class="field-error">Refreshing failed: {errorText(board.error)}</p>}
      {board.loading && !board.data && <Loading label="Loading the board…" />}
      {!board.loading && !board.data && <LoadError error={board.error} what="the production board" onRetry={() => void board.reload()} />}
      {board.data && machines.length === 0 && writable && (
        <Notice tone="info" title="No machines yet.">
          <p>
            Scheduling and printing need a machine. Add machines with <code>POST /v1/production/machines</code> (docs/production.md).
          </p>
        </Notice>
      )}
      {board.data && (
        <div class={`board${dragging ? ' board-dragging' : ''}`}>
          {columns.map((status) => {
            const page = board.data!.columns.get(status)!;
            const view = jobStatusView(status);
            const target = dragging !== undefined && canMoveJob(dragging.status, status, dragging.held_from);
            const blocked = target && needsMachine(status) && dragging.machine_id === null && machineFilter === undefined;
            return (
              <section
                key={status}
                class={`board-column${target && !blocked ? ' drop-target' : ''}`}
                aria-labelledby={`column-${status}`}
                data-column={status}
                onDragOver={(event) => {
                  if (target && !blocked) event.preventDefault();
                }}
                onDrop={(event) => {
                  event.preventDefault();
                  const job = dragging;
                  setDragging(undefined);
                  if (job && target && !blocked) void move(job, status, machineFilter);
                }}
              >
                <h2 id={`column-${status}`} class="board-column-title">
                  <span class={`tone-${view.tone}`} aria-hidden="true">
                    {view.symbol}
                  </span>{' '}
                  {view.label} <span class="count">{page.pagination.total}</span>
                </h2>
                {page.items.length === 0 ? (
                  <p class="board-empty muted">No jobs</p>
                ) : (
                  <ul class="job-list" aria-label={`${view.label} jobs`}>
                    {page.items.map((job) => (
                      <JobCard
                        key={job.id}
                        job={job}
                        machines={machines}
                        machineName={machineName(job.machine_id)}
                        writable={writable}
                        busy={busyJob === job.id}
                        defaultMachine={machineFilter}
                        onMove={(to, machineId) => void move(job, to, machineId)}
                        onAssign={(machineId) => void assign(job, machineId)}
                        onDragStart={() => setDragging(job)}
                        onDragEnd={() => setDragging(undefined)}
                      />
                    ))}
                  </ul>
                )}
                {page.pagination.total > page.items.length && (
                  <p class="muted board-more">and {page.pagination.total - page.items.length} more (filter by machine to see them)</p>
                )}
              </section>
            );
          })}
        </div>
      )}
    </>
  );
}

function JobCard({
  job,
  machines,
  machineName,
  writable,
  busy,
  defaultMachine,
  onMove,
  onAssign,
  onDragStart,
  onDragEnd,
}: {
  job: Job;
  machines: Machine[];
  machineName?: string;
  writable: boolean;
  busy: boolean;
  defaultMachine?: number;
  onMove: (to: JobStatus, machineId?: number) => void;
  onAssign: (machineId: number) => void;
  onDragStart: () => void;
  onDragEnd: () => void;
}) {
  const overdue = isOverdueDate(job.due_date);
  const running = job.status === 'printing' || job.status === 'finishing';
  const moves = nextJobStatuses(job.status, job.held_from);
  const [picked, setPicked] = useState<string>(job.machine_id ? String(job.machine_id) : defaultMachine ? String(defaultMachine) : '');
  const pickedMachine = picked ? Number(picked) : undefined;
  const selectId = `job-${job.id}-machine`;
  return (
    <li
      class={`job-card priority-${job.priority}${overdue ? ' job-overdue' : ''}${busy ? ' job-busy' : ''}`}
      data-job-card={job.id}
      data-awaiting-approval={job.awaiting_approval ? 'true' : undefined}
      tabIndex={-1}
      aria-label={`Job ${job.id}, ${job.order_number}: ${job.description}`}
      draggable={writable && !busy}
      onDragStart={(event) => {
        event.dataTransfer?.setData('text/plain', String(job.id));
        onDragStart();
      }}
      onDragEnd={onDragEnd}
    >
      <div class="job-head">
        <Link href={pathFor({ name: 'order', id: job.order_id })} class="mono job-order">
          {job.order_number}
        </Link>
        <span class={`priority priority-${job.priority}`} title="Priority">
          {priorityLabel(job.priority)}
        </span>
      </div>
      <p class="job-title">
        <span class="muted">Job {job.id} ·</span> {job.description}
      </p>
      <dl class="job-facts">
        <Fact label="Quantity">{job.quantity.toLocaleString('en-GB')}</Fact>
        <Fact label="Due" class={overdue ? 'overdue' : undefined}>
          {formatDate(job.due_date)}
          {overdue && <strong> — overdue</strong>}
        </Fact>
        <Fact label="Machine">{machineName ?? <span class="muted">none</span>}</Fact>
        {job.status === 'on_hold' && job.held_from && <Fact label="Held from">{jobStatusView(job.held_from).label}</Fact>}
        {job.reprints > 0 && <Fact label="Reprints">{job.reprints}</Fact>}
      </dl>
      {job.status === 'failed' && <StatusBadge view={jobStatusView('failed')} />}
      {job.awaiting_approval && <StatusBadge view={AWAITING_APPROVAL_VIEW} />}
      {writable && (
        <>
          {!running && machines.length > 0 && (
            <div class="job-machine">
              <label for={selectId} class="visually-hidden">
                Machine for job {job.id}
              </label>
              <select
                id={selectId}
                class="input select select-small"
                value={picked}
                disabled={busy}
                onChange={(event) => {
                  const value = event.currentTarget.value;
                  setPicked(value);
                  if (value && Number(value) !== job.machine_id) onAssign(Number(value));
                }}
              >
                <option value="">{job.machine_id ? 'Machine…' : 'Assign a machine…'}</option>
                {machines.map((machine) => (
                  <option key={machine.id} value={machine.id}>
                    {machine.name}
                    {machine.status !== 'idle' ? ` (${machine.status})` : ''}
                  </option>
                ))}
              </select>
            </div>
          )}
          <div class="job-actions" role="group" aria-label={`Move job ${job.id}`}>
            {moves
              .filter((to) => to !== 'failed' && to !== 'cancelled')
              .map((to) => {
                const missing = needsMachine(to) && job.machine_id === null && pickedMachine === undefined;
                return (
                  <button
                    key={to}
                    type="button"
                    class="btn btn-primary btn-small"
                    disabled={busy || missing}
                    title={missing ? 'Assign a machine first' : undefined}
                    aria-label={`${jobActionLabel(job.status, to)}: job ${job.id}`}
                    onClick={() => onMove(to, pickedMachine)}
                  >
                    {jobActionLabel(job.status, to)}
                  </button>
                );
              })}
            {moves.includes('failed') && (
              <button
                type="button"
                class="btn btn-secondary btn-small"
                disabled={busy}
                aria-label={`Mark job ${job.id} failed`}
                onClick={() => onMove('failed')}
              >
                Failed
              </button>
            )}
          </div>
        </>
      )}
    </li>
  );
}
