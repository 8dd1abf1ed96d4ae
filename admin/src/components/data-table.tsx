import type { ComponentChildren } from 'preact';

export interface Column<T> {
  /** The header, and each cell's label where the table becomes cards (narrow screens). */
  label: string;
  /** The cells' label when it differs from the header (`#` → "Attempt"). */
  cellLabel?: string;
  /** A column of row actions: its header for screen readers only, its cells unlabelled (`cell-actions`). */
  actions?: boolean;
  /** The cells' class (`num` right-aligns the header too), or one per row. */
  class?: string | ((row: T) => string | undefined);
  /** A cell's content. Called while the table renders: no hooks here (a component that uses them is fine). */
  cell: (row: T) => ComponentChildren;
}

/**
 * A list as a table (`table responsive`: labelled cards at 390 px): one column definition per
 * column instead of a header cell and a body cell kept in step by hand. `rowAttributes` marks the
 * rows (`data-order`, …) for the tests and the focus handling.
 */
export function DataTable<T>({
  label,
  columns,
  rows,
  rowKey,
  rowAttributes,
}: {
  label: string;
  columns: Column<T>[];
  rows: readonly T[];
  rowKey: (row: T) => string | number;
  rowAttributes?: (row: T) => Record<`data-${string}`, string | number>;
}) {
  return (
    <table class="table responsive" aria-label={label}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column.label} scope="col" class={typeof column.class === 'string' && /\bnum\b/.test(column.class) ? 'num' : undefined}>
              {column.actions ? <span class="visually-hidden">{column.label}</span> : column.label}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row) => (
          <tr key={rowKey(row)} {...rowAttributes?.(row)}>
            {columns.map((column) => (
              <td
                key={column.label}
                data-label={column.actions ? undefined : (column.cellLabel ?? column.label)}
                class={column.actions ? 'cell-actions' : typeof column.class === 'function' ? column.class(row) : column.class}
              >
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
