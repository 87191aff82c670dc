/** startSandbox takes its configuration from the caller (an entry point's loadSandboxConfig(env)), never the env. */
import { loadSandboxConfig } from '../../../src/config/sandbox';
import { startSandbox } from '../../../src/sandbox/server';

describe('startSandbox configuration', () => {
  test('base is the configuration, the other fields go on top of it', async () => {
    const base = loadSandboxConfig({
      SANDBOX_TIME_SCALE: '0.5',
      SANDBOX_SEED: '77',
      SANDBOX_LOG_LEVEL: 'silent',
    });
    const sandbox = await startSandbox({ base, port: 0, seed: 78 });
    try {
      expect(sandbox.config.timeScale).toBe(0.5);
      expect(sandbox.config.seed).toBe(78);
      expect(sandbox.config.logLevel).toBe('silent');
    } finally {
      await sandbox.close();
    }
  });

  test('without base, the defaults, whatever the process environment says', async () => {
    const before = process.env.SANDBOX_TIME_SCALE;
    process.env.SANDBOX_TIME_SCALE = '0.25';
    try {
      const sandbox = await startSandbox({ port: 0, logLevel: 'silent' });
      try {
        expect(sandbox.config.timeScale).toBe(loadSandboxConfig({}).timeScale);
      } finally {
        await sandbox.close();
      }
    } finally {
      if (before === undefined) delete process.env.SANDBOX_TIME_SCALE;
      else process.env.SANDBOX_TIME_SCALE = before;
    }
  });
});
