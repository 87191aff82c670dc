/**
 * The settings reference: every field of every section described, the generated docs/configuration.md and
 * .env.example current, and no process reading a setting around src/config.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { allSettings, SETTING_SECTIONS, settingsOf } from '../../../src/config/reference';
import { renderConfigurationReference, renderEnvExample } from '../../../src/config/reference-docs';
import { READERS, SETTING_GROUPS, settingRegistry } from '../../../src/config/setting';
import { CONFIG_DOCS } from '../../../src/entry/config-docs';

const ROOT = path.join(__dirname, '..', '..', '..');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');

function sources(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir)).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(path.join(ROOT, file)).isDirectory()) return sources(file);
    return file.endsWith('.ts') ? [file] : [];
  });
}

/** Comments name settings freely; only code reads them. */
const code = (file: string) =>
  read(file)
    .replace(/\/\*[\s\S]*?\*\//g, '')
    .replace(/^\s*\/\/.*$/gm, '');

describe('the settings reference', () => {
  test('every field of every section carries its metadata, and each name is read by one field', () => {
    for (const { schema } of SETTING_SECTIONS)
      for (const [name, field] of Object.entries(schema.shape))
        expect({ name, described: settingRegistry.has(field) }).toEqual({ name, described: true });
    const names = allSettings().map((setting) => setting.name);
    expect(new Set(names).size).toBe(names.length);
  });

  test('every setting has a group, a default, a meaning and at least one reader', () => {
    for (const setting of allSettings()) {
      expect(SETTING_GROUPS).toContain(setting.group);
      expect(setting.default).not.toBe('');
      expect(setting.meaning).toMatch(/\.$/);
      expect(setting.readBy.length).toBeGreaterThan(0);
      for (const reader of setting.readBy) expect(READERS).toContain(reader);
    }
  });

  test('a production deployment is described by at most 40 settings', () => {
    expect(settingsOf('production').length).toBeLessThanOrEqual(40);
  });

  test.each(Object.entries(CONFIG_DOCS))(
    '%s is what the settings generate (run npm run config:docs)',
    (file, render) => {
      expect(read(file)).toBe(render());
    },
  );

  test('the prose of docs/configuration.md stays within 120 characters a line', () => {
    const long = renderConfigurationReference()
      .split('\n')
      .filter((line) => !line.startsWith('|') && line.length > 120);
    expect(long).toEqual([]);
  });

  test('.env.example names exactly the production settings, and its lines stay within 120 characters', () => {
    const text = renderEnvExample();
    const named = [...text.matchAll(/^(?:# )?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]);
    expect(named).toEqual(settingsOf('production').map((setting) => setting.name));
    expect(text.split('\n').filter((line) => line.length > 120)).toEqual([]);
  });

  test('a required production setting is set in .env.example; a secret never has a value there', () => {
    const lines = renderEnvExample().split('\n');
    for (const setting of settingsOf('production')) {
      const line = lines.find((candidate) => candidate.replace(/^# /, '').startsWith(`${setting.name}=`))!;
      expect({ name: setting.name, active: !line.startsWith('#') }).toEqual({
        name: setting.name,
        active: setting.required === 'yes',
      });
      if (setting.secret) expect(line.endsWith('=')).toBe(true);
    }
  });
});

describe('settings are read through src/config only', () => {
  /** Names that are not the product's settings: the OS's PATH, pip's own, jest's worker number. */
  const NOT_SETTINGS = new Set(['PATH', 'PIP_DEFAULT_TIMEOUT', 'JEST_WORKER_ID']);
  const READ = /\benv\??\.([A-Z][A-Z0-9_]+)|\benv\[['"]([A-Z][A-Z0-9_]+)['"]\]/g;

  test('no code outside src/config reads an environment variable of the product', () => {
    const stray = ['src', 'activities', 'workflows']
      .flatMap(sources)
      .filter((file) => !file.startsWith(path.join('src', 'config')))
      .flatMap((file) =>
        [...code(file).matchAll(READ)]
          .map((match) => match[1] ?? match[2]!)
          .filter((name) => !NOT_SETTINGS.has(name))
          .map((name) => `${file}: ${name}`),
      );
    expect(stray).toEqual([]);
  });

  test('a name src/config reads by hand is in the reference', () => {
    const known = new Set(allSettings().map((setting) => setting.name));
    const unknown = sources(path.join('src', 'config')).flatMap((file) =>
      [...code(file).matchAll(READ)]
        .map((match) => match[1] ?? match[2]!)
        .filter((name) => !known.has(name))
        .map((name) => `${file}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });
});
