import {
  DEFAULT_DEV_SQLITE_PRAGMAS,
  loadDevSqlitePragmas,
  loadTemporalConfig,
  parseSqlitePragmas,
} from '../../../src/config/temporal';

describe('dev server SQLite pragmas', () => {
  test('unset: WAL with synchronous=OFF, in the Temporal configuration too', () => {
    expect(DEFAULT_DEV_SQLITE_PRAGMAS).toEqual(['journal_mode=WAL', 'synchronous=OFF']);
    expect(loadDevSqlitePragmas({})).toEqual(['journal_mode=WAL', 'synchronous=OFF']);
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
    expect(loadDevSqlitePragmas({ TEMPORAL_DEV_SQLITE_PRAGMAS: 'busy_timeout=5000' })).toEqual([
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
