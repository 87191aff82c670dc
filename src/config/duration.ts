import { z } from 'zod';

const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

/**
 * Parses "1500ms", "25s", "0.5s", "30m", "24h", "7d" (or a bare number of milliseconds) into milliseconds.
 * Every duration of the product comes through here, so tests shorten time through configuration.
 */
export function parseDurationMs(text: string): number {
  const match = /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)?\s*$/.exec(text);
  if (!match) throw new Error(`"${text}" is not a duration (examples: 1500ms, 25s, 30m, 24h, 7d)`);
  const value = Number(match[1]) * UNIT_MS[match[2] ?? 'ms']!;
  return Math.round(value);
}

/** A zod field for a duration given as text in the environment, with a default. */
export const durationMs = (defaultText: string) =>
  z
    .string()
    .default(defaultText)
    .transform((text, ctx) => {
      try {
        return parseDurationMs(text);
      } catch (error) {
        ctx.addIssue({ code: 'custom', message: (error as Error).message });
        return z.NEVER;
      }
    });
