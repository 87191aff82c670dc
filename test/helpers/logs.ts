/** Loggers that keep what they write, for assertions on log lines. */
import { Writable } from 'node:stream';
import { createLogger, type Logger } from '../../src/logging';

function keptChunks(): { chunks: string[]; destination: Writable } {
  const chunks: string[] = [];
  const destination = new Writable({
    write(chunk: Buffer | string, _encoding, callback) {
      chunks.push(chunk.toString());
      callback();
    },
  });
  return { chunks, destination };
}

export interface CapturedLogger {
  logger: Logger;
  lines: () => string[];
  text: () => string;
}

/** A debug-level logger whose every written line is kept for assertions. */
export function captureLogger(): CapturedLogger {
  const { chunks, destination } = keptChunks();
  const logger = createLogger({ level: 'debug', destination });
  return {
    logger,
    lines: () => chunks.join('').split('\n').filter(Boolean),
    text: () => chunks.join(''),
  };
}

/** An info-level logger whose lines are kept parsed. */
export function captureLines(): { logger: Logger; lines: () => Array<Record<string, unknown>> } {
  const { chunks, destination } = keptChunks();
  return {
    logger: createLogger({ level: 'info', destination }),
    lines: () =>
      chunks
        .join('')
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => JSON.parse(line) as Record<string, unknown>),
  };
}
