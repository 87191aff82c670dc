/** Pure rules of reconciliation's findings. Workflow-safe: no I/O, no Temporal calls. */
import type { AlertInput } from '../alerts/types';
import type { ReconcileFinding, ReconcileFindingKind, ReconcileResult } from './types';

/** A process reconciliation could not read: skipped this run, listed so that someone looks. */
export function unreadableProcess(workflowId: string, reason: string): ReconcileFinding {
  return {
    kind: 'unreadable',
    workflowId,
    subject: workflowId,
    ours: '?',
    operator: '?',
    action: `skipped: ${reason}`,
  };
}

/** How many findings of each kind. */
export function countFound(
  findings: readonly ReconcileFinding[],
): Partial<Record<ReconcileFindingKind, number>> {
  const found: Partial<Record<ReconcileFindingKind, number>> = {};
  for (const finding of findings) found[finding.kind] = (found[finding.kind] ?? 0) + 1;
  return found;
}

/** Plain-text table of findings, for the CLI and the Web UI's current details of a run in one pass. */
export function findingsTable(findings: readonly ReconcileFinding[]): string {
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

/** The alert of funds in a deposit wallet that no open off-ramp accounts for (one incident per wallet and network). */
export function unaccountedFundsAlert(finding: ReconcileFinding, workflowId: string): AlertInput {
  return {
    kind: 'unaccounted-funds',
    message: `Deposit wallet ${finding.walletId ?? '?'} holds ${finding.amount ?? '?'} ${finding.asset ?? ''} on ${finding.network ?? '?'} that no open off-ramp accounts for`,
    workflowId,
    details: {
      walletId: finding.walletId ?? null,
      network: finding.network ?? null,
      asset: finding.asset ?? null,
      amount: finding.amount ?? null,
      endUserId: finding.endUserId ?? null,
    },
  };
}

/** The Web UI's current details of a run in one pass: what was checked, then the findings table. */
export function currentDetails(result: ReconcileResult): string {
  return `${result.processesChecked} processes, ${result.walletsChecked} deposit wallets checked\n${findingsTable(result.findings ?? [])}`;
}
