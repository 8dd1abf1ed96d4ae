/**
 * After the integration run: every route the tests exercised is held to its DynamoDB call budget
 * (bench/budgets.ts) and may never have scanned. A violation fails the run (vitest reports a
 * failing global teardown), so CI guards the budgets without timing anything.
 */
import { writeFileSync } from 'node:fs';
import type { RouteCalls } from '#local-aws/dynamodb-calls';
import { callsBudget, FORBIDDEN_COMMANDS, medianOf } from '#bench/budgets';

export function checkCallBudgets(calls: Record<string, RouteCalls>, outputFile?: string): void {
  const summary = Object.entries(calls).map(([route, entry]) => ({
    route,
    requests: entry.requests,
    median: medianOf(entry.successCalls),
    max: entry.successCalls.length ? Math.max(...entry.successCalls) : 0,
    budget: callsBudget(route),
    commands: entry.commands,
  }));
  if (outputFile) writeFileSync(outputFile, JSON.stringify(summary, null, 2) + '\n');
  const problems = [
    ...summary
      .filter((row) => row.median > row.budget)
      .map((row) => `${row.route}: ${row.median} DynamoDB calls per request (budget ${row.budget})`),
    ...summary.flatMap((row) =>
      FORBIDDEN_COMMANDS.filter((command) => row.commands[command]).map((command) => `${row.route}: used ${command}`),
    ),
  ];
  if (problems.length) throw new Error(`DynamoDB call budgets exceeded:\n  ${problems.join('\n  ')}`);
}
