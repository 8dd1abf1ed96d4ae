/** Small statistics helpers for the benchmark. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index]!;
}

export interface Distribution {
  p50: number;
  p90: number;
  p99: number;
  n: number;
}

export function distribution(samples: number[]): Distribution {
  const sorted = [...samples].sort((a, b) => a - b);
  return { p50: percentile(sorted, 50), p90: percentile(sorted, 90), p99: percentile(sorted, 99), n: sorted.length };
}

export const round = (value: number, digits = 2): number => Math.round(value * 10 ** digits) / 10 ** digits;

export function table(rows: (string | number)[][]): string {
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => String(row[column] ?? '').length)));
  return rows.map((row) => row.map((cell, column) => String(cell).padEnd(widths[column]!)).join('  ')).join('\n');
}
