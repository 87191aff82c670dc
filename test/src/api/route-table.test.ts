/**
 * The route table of docs/integration.md ("HTTP API") against the OpenAPI document: every operation the API serves
 * has its row, every row is an operation, and each status a row names is one the document says the operation answers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { INTEGRATION_GUIDE } from '../../helpers/doc-examples';

const OPENAPI = path.join(__dirname, '..', '..', '..', 'docs', 'openapi.json');

interface Row {
  operation: string;
  statuses: string[];
}

/** The rows of the guide's route table: `METHOD /path` (its query left out) and the statuses it names. */
function routeTable(): Row[] {
  const lines = readFileSync(INTEGRATION_GUIDE, 'utf8').split('\n');
  const header = lines.findIndex((line) => /^\| route +\| what +\| answers +\|$/.test(line));
  expect(header).toBeGreaterThan(0);
  const rows: Row[] = [];
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const [route = '', , answers = ''] = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    rows.push({
      operation: route.replace(/`/g, '').replace(/\?.*$/, ''),
      statuses: answers.split(',').map((status) => status.trim()),
    });
  }
  return rows;
}

describe('the route table of the integration guide', () => {
  test('lists every operation of the OpenAPI document once, each status one the operation answers', () => {
    const document = JSON.parse(readFileSync(OPENAPI, 'utf8')) as {
      paths: Record<string, Record<string, { responses: Record<string, unknown> }>>;
    };
    const operations = new Map<string, string[]>();
    for (const [route, methods] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(methods))
        if (route.startsWith('/v1/'))
          operations.set(`${method.toUpperCase()} ${route}`, Object.keys(operation.responses));
    const rows = routeTable();
    expect(rows.map((row) => row.operation).sort()).toEqual([...operations.keys()].sort());
    for (const row of rows)
      expect(operations.get(row.operation)).toEqual(expect.arrayContaining(row.statuses));
  });
});
