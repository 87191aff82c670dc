import {
  DEFAULT_DEV_DYNAMIC_CONFIG,
  DEFAULT_DEV_SQLITE_PRAGMAS,
  loadDevServerTuning,
  loadTemporalConfig,
  parseDevDynamicConfig,
  parseSqlitePragmas,
} from '../../../src/config/temporal';
import { devServerTuningArgs } from '../../../src/temporal/dev-server';

describe('dev server SQLite pragmas', () => {
  test('unset: WAL with synchronous=OFF, in the Temporal configuration too', () => {
    expect(DEFAULT_DEV_SQLITE_PRAGMAS).toEqual(['journal_mode=WAL', 'synchronous=OFF']);
    expect(loadDevServerTuning({}).sqlitePragmas).toEqual(['journal_mode=WAL', 'synchronous=OFF']);
    expect(loadTemporalConfig({}, '/project').devServer.sqlitePragmas).toEqual([
      'journal_mode=WAL',
      'synchronous=OFF',
    ]);
  });

  test('a list separated by commas or spaces replaces the defaults', () => {
    expect(parseSqlitePragmas('journal_mode=WAL, synchronous=NORMAL')).toEqual([
      'journal_mode=WAL',
      'synchronous=NORMAL',
    ]);
    expect(loadDevServerTuning({ TEMPORAL_DEV_SQLITE_PRAGMAS: 'busy_timeout=5000' }).sqlitePragmas).toEqual([
      'busy_timeout=5000',
    ]);
  });

  test('an empty value means none: SQLite defaults', () => {
    expect(parseSqlitePragmas('')).toEqual([]);
    expect(parseSqlitePragmas('  ')).toEqual([]);
  });

  test('a pair that is not name=value is refused, naming it and the variable', () => {
    expect(() => parseSqlitePragmas('journal_mode')).toThrow(/TEMPORAL_DEV_SQLITE_PRAGMAS: "journal_mode"/);
    expect(() => loadTemporalConfig({ TEMPORAL_DEV_SQLITE_PRAGMAS: 'synchronous=OFF;drop' }, '/p')).toThrow(
      /not of the form name=value/,
    );
  });
});

describe('dev server dynamic config', () => {
  test('unset: the search attribute cache on, one write partition and eager activities, in the Temporal configuration too', () => {
    const expected = [
      'system.forceSearchAttributesCacheRefreshOnRead=false',
      'matching.numTaskqueueWritePartitions=1',
      'system.enableActivityEagerExecution=true',
    ];
    expect(DEFAULT_DEV_DYNAMIC_CONFIG).toEqual(expected);
    expect(loadTemporalConfig({}, '/project').devServer.dynamicConfig).toEqual(expected);
  });

  test('a list replaces the defaults; an empty value means the CLI defaults', () => {
    expect(
      parseDevDynamicConfig(
        'limit.maxIDLength=255 frontend.namespaceRPS="x",system.enableEagerWorkflowStart=true',
      ),
    ).toEqual(['limit.maxIDLength=255', 'frontend.namespaceRPS="x"', 'system.enableEagerWorkflowStart=true']);
    expect(loadDevServerTuning({ TEMPORAL_DEV_DYNAMIC_CONFIG: '' }).dynamicConfig).toEqual([]);
  });

  test('a pair without a key or with a value that is not JSON is refused, naming it and the variable', () => {
    for (const bad of [
      'system.forceSearchAttributesCacheRefreshOnRead',
      '=true',
      'limit.maxIDLength=',
      'a=yes',
    ]) {
      expect(() => parseDevDynamicConfig(bad)).toThrow(
        new RegExp(
          `TEMPORAL_DEV_DYNAMIC_CONFIG: ${JSON.stringify(bad).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`,
        ),
      );
    }
    expect(() => loadTemporalConfig({ TEMPORAL_DEV_DYNAMIC_CONFIG: 'x;y=1' }, '/p')).toThrow(
      /not of the form key=value with a JSON value/,
    );
  });

  test('the launcher passes each pragma and each value as its own start-dev argument', () => {
    expect(
      devServerTuningArgs({ sqlitePragmas: ['journal_mode=WAL'], dynamicConfig: ['limit.maxIDLength=255'] }),
    ).toEqual(['--sqlite-pragma', 'journal_mode=WAL', '--dynamic-config-value', 'limit.maxIDLength=255']);
    expect(devServerTuningArgs(undefined)).toEqual([]);
  });
});
