import { SANDBOX_DEMO_DEFAULTS, startEnvironment, withDefaults } from '../../../src/entry/environment';
import { loadSandboxConfig } from '../../../src/config/sandbox';
import { loadWorkflowTimings } from '../../../src/config/timings';
import { loadLogLevel } from '../../../src/config/logging';

describe("npm start's environment", () => {
  test('against the sandbox, the demo defaults and LOG_LEVEL=warn sit under an otherwise silent environment', () => {
    const env = startEnvironment({ PATH: '/bin' });
    expect(env).toEqual({ PATH: '/bin', LOG_LEVEL: 'warn', ...SANDBOX_DEMO_DEFAULTS });
    expect(loadLogLevel(env)).toBe('warn');
    expect(loadSandboxConfig(env).timeScale).toBe(0.05);
    expect(loadWorkflowTimings(env).stepDeadlineMs).toBe(10_000);
  });

  test('against a real operator, only the log level is defaulted', () => {
    const env = startEnvironment({ OPERATOR_BASE_URL: 'https://operator.example' });
    expect(env).toEqual({ OPERATOR_BASE_URL: 'https://operator.example', LOG_LEVEL: 'warn' });
  });

  test('a variable the environment sets wins, even an empty one', () => {
    const env = startEnvironment({ RAMP_STEP_DEADLINE: '30s', LOG_LEVEL: 'debug', SANDBOX_LOG_LEVEL: '' });
    expect(env.RAMP_STEP_DEADLINE).toBe('30s');
    expect(env.LOG_LEVEL).toBe('debug');
    expect(env.SANDBOX_LOG_LEVEL).toBe('');
    expect(env.SANDBOX_TIME_SCALE).toBe('0.05');
  });

  test('the given environment is left as it was', () => {
    const given = { PATH: '/bin' };
    startEnvironment(given);
    withDefaults({ LOG_LEVEL: 'warn' }, given);
    expect(given).toEqual({ PATH: '/bin' });
  });
});

describe('loadLogLevel', () => {
  test('reads LOG_LEVEL case-insensitively and falls back to info', () => {
    expect(loadLogLevel({ LOG_LEVEL: ' Debug ' })).toBe('debug');
    expect(loadLogLevel({ LOG_LEVEL: 'loud' })).toBe('info');
    expect(loadLogLevel({})).toBe('info');
  });
});
