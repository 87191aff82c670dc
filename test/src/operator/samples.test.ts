/**
 * Samples are tests: every answer under test/fixtures/operator-samples/ (what `npm run operator:probe` saves), and
 * under the folder OPERATOR_SAMPLES names, is read with the product's schemas under the active profile
 * (OPERATOR_PROFILE, else our assumptions). Drop the probe's output from a real operator there and this says at once
 * which answer the product would not read, and why.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { loadOperatorConfig } from '../../../src/config/operator';
import { DEFAULT_OPERATOR_PROFILE, ROUTE_NAMES } from '../../../src/domain/operator-profile';
import { sampleIssues } from '../../../src/probe/samples';

const FIXTURES = path.join(__dirname, '..', '..', 'fixtures', 'operator-samples');

function samplesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return samplesUnder(file);
    return name.endsWith('.json') ? [file] : [];
  });
}

const folders = [
  FIXTURES,
  ...(process.env.OPERATOR_SAMPLES ? [path.resolve(process.env.OPERATOR_SAMPLES)] : []),
];
const files = folders.flatMap((folder) => (existsSync(folder) ? samplesUnder(folder) : []));
const profile = loadOperatorConfig(process.env).profile;

describe('operator samples', () => {
  test('every folder exists and holds samples', () => {
    for (const folder of folders) {
      expect(existsSync(folder)).toBe(true);
      expect(samplesUnder(folder).length).toBeGreaterThan(0);
    }
  });

  test.each(files.map((file) => [path.relative(process.cwd(), file), file]))(
    '%s is read by the product',
    (_name, file) => {
      expect(sampleIssues(JSON.parse(readFileSync(file, 'utf8')), profile)).toEqual([]);
    },
  );

  test('the fixtures hold an answer of every route the probe calls', () => {
    const answered = new Set(
      samplesUnder(FIXTURES)
        .map((file) => JSON.parse(readFileSync(file, 'utf8')) as { operation: string; status: number })
        .filter((sample) => sample.status < 300)
        .map((sample) => sample.operation),
    );
    // Quotes are not the probe's: asking one is not a read, and an order would follow its use.
    expect(ROUTE_NAMES.filter((name) => !answered.has(name))).toEqual(['createQuote']);
  });

  test('a sample the product would not read is named with its issues', () => {
    const transaction = JSON.parse(readFileSync(path.join(FIXTURES, 'getTransaction-200.json'), 'utf8')) as {
      body: { data: Record<string, unknown> };
    };
    transaction.body.data.status = 'SETTLED';
    delete transaction.body.data.walletId;
    expect(sampleIssues(transaction, DEFAULT_OPERATOR_PROFILE)).toEqual([
      expect.stringMatching(/^body\.data\.status: /),
      expect.stringMatching(/^body\.data\.walletId: /),
    ]);
    expect(
      sampleIssues({ operation: 'getTransactions', status: 200, body: {} }, DEFAULT_OPERATOR_PROFILE),
    ).toEqual([expect.stringMatching(/^operation: must be one of startSession, /)]);
    expect(
      sampleIssues(
        { operation: 'getOrder', status: 404, body: { message: 'gone' } },
        DEFAULT_OPERATOR_PROFILE,
      ),
    ).toEqual([
      'body.error.code: the error code must be a string here (profile key errors.body.code)',
      'body.error.message: the error message must be a string here (profile key errors.body.message)',
    ]);
  });
});
