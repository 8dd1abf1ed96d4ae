import type { Order } from '../../api/types';
import { StatusBadge } from '../../components/badges';
import { Card } from '../../components/card';
import { DataTable } from '../../components/data-table';
import { Link } from '../../components/link';
import { ScopeNotice } from '../../components/scope-notice';
import { answered, ListState } from '../../components/states';
import { useAsync } from '../../hooks/use-async';
import { canRead } from '../../lib/access';
import { AWAITING_APPROVAL_VIEW } from '../../lib/proofs';
import { pathFor } from '../../lib/routes';
import { formatDate, jobStatusView, priorityLabel } from '../../lib/shop-status';
import { useSession } from '../../session-context';

/** The order's production jobs (production:read), one per line once it is confirmed. */
export function OrderJobs({ order, revision }: { order: Order; revision: number }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'production');
  const jobs = useAsync(
    () => (readable ? client.listJobs({ order_id: order.id }) : Promise.resolve(undefined)),
    [client, order.id, revision],
  );
  return (
    <Card
      id="jobs"
      title="Production jobs"
      actions={
        readable && (
          <Link href={pathFor({ name: 'production' })} class="btn btn-secondary btn-small">
            Open the board
          </Link>
        )
      }
    >
      {!readable || answered(jobs.error, 403) ? (
        <ScopeNotice account={account} area="production" compact />
      ) : (
        <ListState
          state={jobs}
          what="jobs"
          empty={
            <p class="muted">{order.status === 'pending' ? 'Confirming the order creates one job per line.' : 'No production jobs.'}</p>
          }
        >
          {(found) => (
            <DataTable
              label="Production jobs of this order"
              rows={found.items}
              rowKey={(job) => job.id}
              rowAttributes={(job) => ({ 'data-job': job.id })}
              columns={[
                {
                  label: 'Job',
                  class: 'cell-main',
                  cell: (job) => (
                    <>
                      <strong>Job {job.id}</strong> · {job.description} × {job.quantity.toLocaleString('en-GB')}
                    </>
                  ),
                },
                {
                  label: 'Status',
                  cell: (job) => (
                    <>
                      <StatusBadge view={jobStatusView(job.status)} />
                      {job.awaiting_approval && (
                        <>
                          {' '}
                          <StatusBadge view={AWAITING_APPROVAL_VIEW} />
                        </>
                      )}
                    </>
                  ),
                },
                { label: 'Priority', cell: (job) => priorityLabel(job.priority) },
                { label: 'Due', cell: (job) => formatDate(job.due_date) },
              ]}
            />
          )}
        </ListState>
      )}
    </Card>
  );
}
