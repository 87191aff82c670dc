/** One row of the results: a figure beside its baseline from the same run, their ratio, and the target. */
import type { MachineInfo } from './machine';
import { type PersistenceSummary, persistenceLine } from './server-metrics';

export interface Figure {
  measurement: string;
  what: string;
  value: number;
  unit: string;
  baseline?: { what: string; value: number };
  /** value / baseline, or value - baseline where the target is a difference (`comparison: 'difference'`). */
  comparison?: 'ratio' | 'difference';
  target?: string;
  met?: boolean;
  note?: string;
}

export interface BenchReport {
  startedAt: string;
  profile: string;
  settings: Record<string, number | string>;
  machine: MachineInfo;
  figures: Figure[];
  /** Every leg's own numbers, for whoever wants more than the table. */
  legs: Record<string, unknown>;
  /** The npm-start server's persistence work during each leg (with --server-metrics). */
  serverPersistence?: Record<string, PersistenceSummary>;
}

export function relation(figure: Figure): number | undefined {
  if (!figure.baseline) return undefined;
  return figure.comparison === 'difference'
    ? figure.value - figure.baseline.value
    : figure.value / figure.baseline.value;
}

const number = (value: number) =>
  !Number.isFinite(value) || Number.isInteger(value)
    ? String(value)
    : Math.abs(value) >= 100
      ? value.toFixed(0)
      : value.toFixed(1);

function relationText(figure: Figure): string {
  const value = relation(figure);
  if (value === undefined) return '';
  if (figure.comparison === 'difference')
    return `${value >= 0 ? '+' : ''}${number(value)} ${figure.unit}`.trimEnd();
  return `${value.toFixed(2)}x`;
}

function persistenceSection(legs: BenchReport['serverPersistence']): string[] {
  if (!legs) return [];
  return [
    '',
    "The npm-start server's persistence requests during each leg, setup included (its metrics):",
    '',
    ...Object.entries(legs).map(([leg, summary]) => `- ${leg}: ${persistenceLine(summary)}`),
  ];
}

export function markdown(report: BenchReport): string {
  const { machine } = report;
  const lines = [
    `# npm run bench: ${report.profile} profile, ${report.startedAt}`,
    '',
    `Machine: ${machine.cpuModel}, ${machine.cores} cores, ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}; ` +
      `load average ${machine.loadAverage} at start${machine.loadAverage > machine.cores / 2 ? ' (busy: other work shared the machine)' : ''}.`,
    '',
    `Settings: ${Object.entries(report.settings)
      .map(([key, value]) => `${key} ${value}`)
      .join(', ')}.`,
    '',
    '| measurement | figure | baseline (same run) | ratio / difference | target | met |',
    '| --- | --- | --- | --- | --- | --- |',
    ...report.figures.map((figure) =>
      [
        figure.measurement,
        `${figure.what}: ${number(figure.value)} ${figure.unit}`.trimEnd(),
        figure.baseline
          ? `${figure.baseline.what}: ${number(figure.baseline.value)} ${figure.unit}`.trimEnd()
          : '',
        relationText(figure),
        figure.target ?? '',
        figure.met === undefined ? '' : figure.met ? 'yes' : 'no',
      ]
        .join(' | ')
        .replace(/^/, '| ')
        .replace(/$/, ' |'),
    ),
    '',
    ...report.figures
      .filter((figure) => figure.note)
      .map((figure) => `- ${figure.measurement}, ${figure.what}: ${figure.note}`),
    ...persistenceSection(report.serverPersistence),
  ];
  return `${lines.join('\n').trimEnd()}\n`;
}
