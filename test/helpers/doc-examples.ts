/**
 * The examples of docs/integration.md, read from the file itself so that the tests run what the document shows:
 * the fenced block after `<!-- example: <name> -->`.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';

export const INTEGRATION_GUIDE = path.join(__dirname, '..', '..', 'docs', 'integration.md');

export function docExample(name: string): string {
  const text = readFileSync(INTEGRATION_GUIDE, 'utf8');
  const marker = `<!-- example: ${name} -->`;
  const at = text.indexOf(marker);
  if (at < 0) throw new Error(`docs/integration.md has no ${marker}`);
  const match = /```[a-z]*\n([\s\S]*?)\n```/.exec(text.slice(at + marker.length));
  if (!match) throw new Error(`no code block after ${marker}`);
  return `${match[1]!}\n`;
}
