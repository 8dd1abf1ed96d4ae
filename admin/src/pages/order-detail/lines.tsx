import type { Order, PrintFile } from '../../api/types';
import { DataTable } from '../../components/data-table';
import { Card } from '../../components/card';
import { Totals } from '../../components/facts';
import { errorText } from '../../components/states';
import { useAsync } from '../../hooks/use-async';
import { canRead } from '../../lib/access';
import { formatMoney } from '../../lib/shop-status';
import { useSession } from '../../session-context';

/** The order's lines with their options, artwork files and prices, and its totals. */
export function OrderLines({ order }: { order: Order }) {
  const money = (amount: number) => formatMoney(amount, order.currency);
  return (
    <Card id="lines" title="Lines">
      <DataTable
        label="Order lines"
        rows={order.items}
        rowKey={(line) => line.id}
        rowAttributes={(line) => ({ 'data-line': line.id })}
        columns={[
          {
            label: 'Line',
            class: 'cell-main',
            cell: (line) => (
              <>
                <strong>
                  {line.id}. {line.description}
                </strong>
                {Object.keys(line.options).length > 0 && (
                  <div class="cell-sub">
                    {Object.entries(line.options)
                      .map(([name, value]) => `${name}: ${value}`)
                      .join(' · ')}
                  </div>
                )}
                {line.file_ids.length > 0 && <LineFiles ids={line.file_ids} />}
              </>
            ),
          },
          { label: 'Quantity', class: 'num', cell: (line) => line.quantity.toLocaleString('en-GB') },
          {
            label: 'Unit price',
            class: 'num',
            cell: (line) => (
              <>
                {money(line.unit_price)}
                {line.price_source === 'manual' && <span class="cell-sub"> (manual)</span>}
              </>
            ),
          },
          { label: 'Setup', class: 'num', cell: (line) => money(line.setup_fee) },
          { label: 'Total', class: 'num', cell: (line) => money(line.total) },
        ]}
      />
      <Totals
        parts={[
          ['Subtotal', money(order.subtotal)],
          ['Shipping', money(order.shipping)],
          [`Tax (${order.tax_rate} %)`, money(order.tax)],
        ]}
        total={money(order.total)}
      />
    </Card>
  );
}

const preflightTone = { pending: 'info', passed: 'success', warnings: 'warning', failed: 'danger', skipped: 'neutral' } as const;

/** A line's artwork: name, status and the preflight result of each file (files:read). */
function LineFiles({ ids }: { ids: number[] }) {
  const { account, client } = useSession();
  const readable = canRead(account, 'files');
  const files = useAsync<(PrintFile | { id: number; error: string })[]>(
    () =>
      readable
        ? Promise.all(ids.map((id) => client.getFile(id).catch((caught: unknown) => ({ id, error: errorText(caught) }))))
        : Promise.resolve([]),
    [client, ids.join(','), readable],
  );
  if (!readable) return <div class="cell-sub">{ids.length} file(s) — this key cannot see files (needs files:read).</div>;
  if (!files.data) return <div class="cell-sub">Loading files…</div>;
  return (
    <ul class="files" aria-label="Artwork files">
      {files.data.map((file) =>
        'error' in file ? (
          <li key={file.id} class="field-error">
            File {file.id}: {file.error}
          </li>
        ) : (
          <li key={file.id} data-file={file.id}>
            <span class="mono break">{file.filename}</span>{' '}
            {file.status !== 'ready' && <span class="tag">{file.status.replace('_', ' ')}</span>}
            {file.preflight && (
              <span class={`badge tone-${preflightTone[file.preflight.status]}`} title="Preflight (the print check)">
                Preflight: {file.preflight.status}
              </span>
            )}
            {file.rejection && <div class="field-error">{file.rejection}</div>}
            {file.preflight && file.preflight.checks.some((check) => check.result !== 'passed') && (
              <ul class="checks">
                {file.preflight.checks
                  .filter((check) => check.result !== 'passed')
                  .map((check) => (
                    <li key={check.code} class={check.result === 'failed' ? 'tone-danger' : 'tone-warning'}>
                      {check.result === 'failed' ? '✕' : '!'} {check.message}
                    </li>
                  ))}
              </ul>
            )}
          </li>
        ),
      )}
    </ul>
  );
}
