/** Pure rules of reconciliation's findings. Workflow-safe: no I/O, no Temporal calls. */
import type { ReconcileFinding } from './types';

/** Plain-text table of findings, for the CLI and the Web UI's current details. */
export function findingsTable(findings: ReconcileFinding[]): string {
  if (findings.length === 0)
    return 'No findings: every open process matches the operator, no unaccounted funds.';
  const rows = [
    ['kind', 'subject', 'ours', 'operator', 'action', 'workflow'],
    ...findings.map((f) => [f.kind, f.subject, f.ours, f.operator, f.action, f.workflowId ?? '-']),
  ];
  const widths = rows[0]!.map((_, column) => Math.max(...rows.map((row) => row[column]!.length)));
  return rows
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]!))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}
