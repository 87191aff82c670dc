/** Every secret setting may be given as a file (`<NAME>_FILE`): read, refused beside its plain form, named when unreadable. */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadApiConfig } from '../../../src/config/api';
import { loadReceiverConfig } from '../../../src/config/receiver';
import { allSettings } from '../../../src/config/reference';
import { loadTemporalConfig } from '../../../src/config/temporal';
import { redactKnownSecrets } from '../../../src/secrets/known-secrets';

const dir = mkdtempSync(path.join(os.tmpdir(), 'secret-files-'));
const file = (name: string, text: string) => {
  const target = path.join(dir, name);
  writeFileSync(target, text);
  return target;
};
const real = { OPERATOR_BASE_URL: 'https://operator.example' };

describe('secrets from files', () => {
  test('a mounted secret is read, its one trailing newline dropped, and it is scrubbed from logs', () => {
    const key = 'api-key-from-a-file-0123456789';
    const config = loadApiConfig({ ...real, API_KEY_FILE: file('api-key', `${key}\n`) });
    expect(config.apiKey.reveal()).toBe(key);
    expect(redactKnownSecrets(`told ${key}`)).toBe('told [REDACTED]');
    const receiver = loadReceiverConfig({
      ...real,
      RECEIVER_TRANSACTION_SECRET_FILE: file('tx', 't'.repeat(30)),
      RECEIVER_ORDER_SECRET: 'o'.repeat(30),
    });
    expect(receiver.transactionSecret.reveal()).toBe('t'.repeat(30));
  });

  test("Temporal's API key comes from its file too (envconfig is handed the key)", () => {
    const config = loadTemporalConfig({
      HOME: dir,
      XDG_CONFIG_HOME: dir,
      TEMPORAL_ADDRESS: 'ns.acct.tmprl.cloud:7233',
      TEMPORAL_API_KEY_FILE: file('temporal-api-key', 'temporal-key-from-file\n'),
    });
    expect(config.connection.apiKey).toBe('temporal-key-from-file');
  });

  test('both forms at once are refused, and an unreadable file is named without its contents', () => {
    expect(() =>
      loadApiConfig({ ...real, API_KEY: 'k'.repeat(20), API_KEY_FILE: file('k2', 'x'.repeat(20)) }),
    ).toThrow('API_KEY: set API_KEY or API_KEY_FILE, not both');
    expect(() => loadApiConfig({ ...real, API_KEY_FILE: path.join(dir, 'missing') })).toThrow(
      `API_KEY_FILE: cannot read ${path.join(dir, 'missing')} (ENOENT)`,
    );
    // The file's value is validated like the variable's, and the message never repeats it.
    expect(() => loadApiConfig({ ...real, API_KEY_FILE: file('short', 'short-key') })).toThrow(
      /API_KEY: must be at least 16 characters/,
    );
  });

  test('only secrets have a file form: a plain setting named _FILE stays unread', () => {
    const secrets = allSettings()
      .filter((setting) => setting.secret)
      .map((setting) => setting.name);
    expect(secrets).toEqual(expect.arrayContaining(['API_KEY', 'OPERATOR_PASSCODE', 'TEMPORAL_API_KEY']));
    expect(
      loadApiConfig({ ...real, API_KEY: 'k'.repeat(20), API_PORT_FILE: file('port', '9999') }).port,
    ).toBe(8080);
  });
});
