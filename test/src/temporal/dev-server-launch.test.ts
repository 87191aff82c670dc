import { DEV_SERVER_TUNING, devServerTuningArgs } from '../../../src/temporal/dev-server';

describe('the dev server as the product launches it', () => {
  test('SQLite in WAL without waiting for the disk', () => {
    expect(DEV_SERVER_TUNING.sqlitePragmas).toEqual(['journal_mode=WAL', 'synchronous=OFF']);
  });

  test('the search attribute cache on, one write partition, eager activities and drainage seen in seconds', () => {
    expect(DEV_SERVER_TUNING.dynamicConfig).toEqual([
      'system.forceSearchAttributesCacheRefreshOnRead=false',
      'matching.numTaskqueueWritePartitions=1',
      'system.enableActivityEagerExecution=true',
      'matching.wv.VersionDrainageStatusVisibilityGracePeriod="5s"',
      'matching.wv.VersionDrainageStatusRefreshInterval="5s"',
    ]);
  });

  test('the launcher passes each pragma and each value as its own start-dev argument', () => {
    expect(
      devServerTuningArgs({ sqlitePragmas: ['journal_mode=WAL'], dynamicConfig: ['limit.maxIDLength=255'] }),
    ).toEqual(['--sqlite-pragma', 'journal_mode=WAL', '--dynamic-config-value', 'limit.maxIDLength=255']);
    expect(devServerTuningArgs(undefined)).toEqual([]);
  });
});
