import { loadTemporalConfig } from '../../../src/config/temporal';
import { requiredTemporalAddress, temporalAddress } from '../../../src/temporal/wiring';

describe('the Temporal address an entry point connects to', () => {
  test('the configured server, else the local dev server', () => {
    expect(temporalAddress(loadTemporalConfig({ TEMPORAL_ADDRESS: 'temporal.internal:7233' }))).toBe(
      'temporal.internal:7233',
    );
    expect(
      temporalAddress(loadTemporalConfig({ TEMPORAL_DEV_IP: '127.0.0.2', TEMPORAL_DEV_PORT: '7300' })),
    ).toBe('127.0.0.2:7300');
  });

  test('a stand-alone process refuses to run without TEMPORAL_ADDRESS, naming itself', () => {
    expect(requiredTemporalAddress(loadTemporalConfig({ TEMPORAL_ADDRESS: 'temporal:7233' }), 'worker')).toBe(
      'temporal:7233',
    );
    expect(() => requiredTemporalAddress(loadTemporalConfig({}), 'receiver')).toThrow(
      'TEMPORAL_ADDRESS is required for a stand-alone receiver (npm start runs a local one).',
    );
  });
});
