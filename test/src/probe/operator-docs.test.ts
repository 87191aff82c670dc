/**
 * docs/operator.md lists every assumption with its key: every key of the operator profile, and every row the probe
 * reports (a profile key, or a file and the name in it), is named there in code spans.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../../../src/config/project-root';
import { DEFAULT_OPERATOR_PROFILE } from '../../../src/domain/operator-profile';
import { runProbe } from '../../../src/probe/run';
import type { RunningSandbox } from '../../../src/sandbox/server';
import { SecretString } from '../../../src/secrets/secret-string';
import { EMAIL, PASSCODE, startTestSandbox } from '../../helpers/operator';

const DOC = readFileSync(path.join(PROJECT_ROOT, 'docs', 'operator.md'), 'utf8');
const CODE_SPANS = new Set([...DOC.matchAll(/`([^`\n]+)`/g)].map((match) => match[1]!));

/** Keys whose parts are one assumption each: a word list, a field list, a kind's type and subtype. */
const ONE_KEY = [/^login\.fields/, /^vocabulary\.transactionKinds\.[A-Za-z]+/, /^vocabulary\.[A-Za-z]+/];

function profileKeys(value: unknown, prefix = ''): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, item]) => profileKeys(item, prefix ? `${prefix}.${key}` : key));
}

/** The code spans a row key needs: `routes.getOrder`, or `src/operator/schemas.ts` and `balance`. */
function spansOf(rowKey: string): string[] {
  const inFile = /^(\S+) \((.+)\)$/.exec(rowKey);
  if (!inFile) return [rowKey];
  const [, file, names] = inFile;
  return [file!, ...names!.split(', ').filter((name) => /^[A-Za-z_]+$/.test(name))];
}

describe('docs/operator.md', () => {
  let sandbox: RunningSandbox | undefined;
  afterEach(() => sandbox?.close());

  test('names every key of the operator profile', () => {
    const keys = [
      ...new Set(
        profileKeys(DEFAULT_OPERATOR_PROFILE).map(
          (key) => ONE_KEY.map((pattern) => pattern.exec(key)?.[0]).find((match) => match) ?? key,
        ),
      ),
    ];
    expect(keys.length).toBeGreaterThan(30);
    expect(keys.filter((key) => !CODE_SPANS.has(key))).toEqual([]);
  });

  test('names where every assumption the probe checks lives', async () => {
    sandbox = await startTestSandbox();
    const { report } = await runProbe({
      baseUrl: sandbox.url,
      email: EMAIL,
      passcode: new SecretString(PASSCODE),
      timeoutMs: 5_000,
      profile: DEFAULT_OPERATOR_PROFILE,
      wallets: [],
      transactions: [],
      orders: [],
      allowWrites: true,
    });
    const rowKeys = [...new Set(report.rows.map((row) => row.key))];
    expect(rowKeys.length).toBeGreaterThan(30);
    expect(rowKeys.filter((key) => spansOf(key).some((span) => !CODE_SPANS.has(span)))).toEqual([]);
  });
});
