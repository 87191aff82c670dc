/**
 * `npm run statement -- --from <ISO> --to <ISO> [--format csv|json] [--out <file>]`: the settlement statement of a
 * period (ramps whose process closed in it, reconciled against a fresh read of the operator, then the totals),
 * written as it is read, to stdout or a file. Connects like the typed client (TEMPORAL_*, RAMP_*,
 * PAYLOAD_ENCRYPTION_KEYS); a worker must be running (it reads the operator).
 */
import { createWriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';
import { RampClient } from '../client/ramp-client';
import { parseStatementPeriod } from '../client/statement';
import { STATEMENT_FORMATS, type StatementFormat, statementWriter } from '../client/statement-formats';
import { commandFlags, defineCommand } from './args';
import { runMain } from './run';

const COMMAND = defineCommand({
  usage: 'npm run statement --',
  summary:
    'Writes the settlement statement of a period: one line per ramp whose process closed in it (end user, IDs, ' +
    'quoted and executed amounts, rate, deviation, gas, exceptions, timestamps, and whether a fresh read of the ' +
    'operator agrees), then the totals per status and asset. A worker must be running.',
  flags: {
    from: { type: 'string', valueName: 'ISO 8601', description: 'ramps closed at or after this (required)' },
    to: { type: 'string', valueName: 'ISO 8601', description: 'and before this (required)' },
    format: { type: 'string', valueName: 'csv|json', description: 'csv (default) or json' },
    out: { type: 'string', valueName: 'file', description: 'write to this file instead of stdout' },
  },
  notes: ['Exit status: 0 written, 1 failure, 2 bad flags.'],
});

async function main(): Promise<number> {
  const flags = commandFlags(COMMAND);
  const format = (flags.format ?? 'csv') as StatementFormat;
  if (!STATEMENT_FORMATS.includes(format)) {
    process.stderr.write(`--format must be one of ${STATEMENT_FORMATS.join(', ')}\n`);
    return 2;
  }
  const period = parseStatementPeriod({ from: flags.from, to: flags.to });
  const ramp = await RampClient.connect();
  const out: Writable = flags.out ? createWriteStream(flags.out) : process.stdout;
  try {
    const writer = statementWriter(format, period);
    await write(out, writer.start());
    for await (const item of ramp.statement(period)) await write(out, writer.item(item));
  } finally {
    await ramp.close();
    if (out !== process.stdout) {
      out.end();
      await once(out, 'finish');
    }
  }
  return 0;
}

async function write(out: Writable, chunk: string): Promise<void> {
  if (!out.write(chunk)) await once(out, 'drain');
}

if (require.main === module) runMain(main, { failurePrefix: 'statement failed: ' });
