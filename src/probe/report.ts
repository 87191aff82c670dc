/** The probe's verdicts: one row per assumption, printed as a table; exit status 2 when any is contradicted. */

export type Verdict = 'confirmed' | 'contradicted' | 'not checkable';

export interface ProbeRow {
  /** Where the assumption lives: its profile key, or the file that holds it. */
  key: string;
  assumption: string;
  verdict: Verdict;
  /** What was seen; for `not checkable`, what would check it. */
  seen: string;
}

export class ProbeReport {
  readonly rows: ProbeRow[] = [];

  confirmed(key: string, assumption: string, seen: string): void {
    this.rows.push({ key, assumption, verdict: 'confirmed', seen });
  }

  contradicted(key: string, assumption: string, seen: string): void {
    this.rows.push({ key, assumption, verdict: 'contradicted', seen });
  }

  notCheckable(key: string, assumption: string, wouldCheck: string): void {
    this.rows.push({ key, assumption, verdict: 'not checkable', seen: wouldCheck });
  }

  /** `holds` decides between confirmed and contradicted. */
  verdict(key: string, assumption: string, holds: boolean, seen: string): void {
    if (holds) this.confirmed(key, assumption, seen);
    else this.contradicted(key, assumption, seen);
  }

  get contradictions(): ProbeRow[] {
    return this.rows.filter((row) => row.verdict === 'contradicted');
  }

  /** 0 when nothing is contradicted, 2 otherwise. */
  get exitCode(): 0 | 2 {
    return this.contradictions.length === 0 ? 0 : 2;
  }
}

const LABEL: Record<Verdict, string> = {
  confirmed: 'CONFIRMED',
  contradicted: 'CONTRADICTED',
  'not checkable': 'NOT CHECKABLE',
};

/** The table: verdict and key, then the assumption and what was seen, indented under it. */
export function formatReport(rows: readonly ProbeRow[]): string {
  const width = Math.max(...Object.values(LABEL).map((label) => label.length));
  const lines: string[] = [];
  for (const row of rows) {
    lines.push(`${LABEL[row.verdict].padEnd(width)}  ${row.key}`);
    lines.push(`${' '.repeat(width)}  ${row.assumption}`);
    lines.push(`${' '.repeat(width)}  ${row.verdict === 'not checkable' ? 'to check' : 'seen'}: ${row.seen}`);
  }
  const count = (verdict: Verdict) => rows.filter((row) => row.verdict === verdict).length;
  lines.push(
    '',
    `${count('confirmed')} confirmed, ${count('contradicted')} contradicted, ${count('not checkable')} not checkable`,
  );
  return lines.join('\n');
}
