import type { ComponentChildren, DdHTMLAttributes } from 'preact';

/**
 * One entry of a `<dl>` of facts (`facts`, `job-facts`): its name and its value. `wide` spans the
 * row; the other attributes go on the value (`class="overdue"`, `data-…`).
 */
export function Fact({
  label,
  wide = false,
  children,
  ...value
}: { label: string; wide?: boolean; children?: ComponentChildren } & DdHTMLAttributes<HTMLElement>) {
  return (
    <div class={wide ? 'fact-wide' : undefined}>
      <dt>{label}</dt>
      <dd {...value}>{children}</dd>
    </div>
  );
}

/** The totals under an order's or an invoice's lines: the parts (subtotal, shipping, tax…), then the total. */
export function Totals({ parts, total }: { parts: [label: string, amount: string][]; total: string }) {
  return (
    <dl class="totals">
      {parts.map(([label, amount]) => (
        <div key={label}>
          <dt>{label}</dt>
          <dd>{amount}</dd>
        </div>
      ))}
      <div class="totals-total">
        <dt>Total</dt>
        <dd>{total}</dd>
      </div>
    </dl>
  );
}
