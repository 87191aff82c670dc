/**
 * test/histories/README.md lists every recorded history with the workflow it is a run of and the path it covers:
 * every file is listed, every listed file exists and is a run of the workflow its row names, and every workflow the
 * worker registers has at least one.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import * as workflows from '../../workflows';

const DIR = path.join(__dirname, '..', 'histories');

function manifest(): Array<{ history: string; workflow: string }> {
  const text = readFileSync(path.join(DIR, 'README.md'), 'utf8');
  return text
    .split('\n')
    .filter((line) => line.startsWith('| ') && !line.startsWith('| history') && !line.startsWith('| ---'))
    .map((line) => {
      const [history, workflow] = line
        .split('|')
        .map((cell) => cell.trim())
        .slice(1);
      return { history: history!, workflow: workflow! };
    });
}

const recordedType = (file: string): string => {
  const history = JSON.parse(readFileSync(path.join(DIR, file), 'utf8')) as {
    events: Array<{ workflowExecutionStartedEventAttributes?: { workflowType?: { name?: string } } }>;
  };
  return history.events[0]?.workflowExecutionStartedEventAttributes?.workflowType?.name ?? '';
};

describe('the recorded histories and their manifest', () => {
  const rows = manifest();
  const files = readdirSync(DIR).filter((file) => file.endsWith('.json'));

  test('every file is listed once, and every listed file exists', () => {
    expect(rows.map((row) => `${row.history}.json`).sort()).toEqual([...files].sort());
    expect(new Set(rows.map((row) => row.history)).size).toBe(rows.length);
  });

  test('each file is a run of the workflow its row names', () => {
    for (const row of rows)
      expect([row.history, recordedType(`${row.history}.json`)]).toEqual([row.history, row.workflow]);
  });

  test('every workflow the worker registers has a recorded history', () => {
    expect(new Set(rows.map((row) => row.workflow))).toEqual(new Set(Object.keys(workflows)));
  });
});
