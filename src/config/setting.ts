/**
 * What the product knows about each of its settings, attached to the setting's zod field so that the field that
 * parses a variable also describes it. docs/configuration.md and .env.example are generated from this
 * (src/config/reference.ts, `npm run config:docs`).
 */
import { z } from 'zod';

/**
 * - production: a deployment sets or may change it (addresses, credentials, secrets, timings a business chooses,
 *   worker sizing);
 * - tests shorten: a duration tests, the demo or the chaos run shorten; a deployment leaves it;
 * - local development: the dev server, the CLI, the demo, and the codec server's bind and token;
 * - sandbox: the sandbox operator.
 */
export const SETTING_GROUPS = ['production', 'tests shorten', 'local development', 'sandbox'] as const;
export type SettingGroup = (typeof SETTING_GROUPS)[number];

/**
 * The commands and processes that read settings (npm script names; "typed client" is RampClient.connect()), those
 * that talk to Temporal first.
 */
export const READERS = [
  'npm start',
  'worker',
  'receiver',
  'api',
  'typed client',
  'account:setup',
  'schedules:apply',
  'reconcile',
  'statement',
  'demo',
  'db:migrate',
  'release',
  'sandbox',
  'codec-server',
  'temporal:install',
  'healthcheck',
  'operator:probe',
] as const;
export type Reader = (typeof READERS)[number];

export interface SettingMeta {
  group: SettingGroup;
  /** The default as a reader sees it ("none" when unset means off or absent). */
  default: string;
  /** One or two sentences: what it is, what changes when it changes. */
  meaning: string;
  /** A credential, a key or a URL that carries one: never logged, never committed. */
  secret?: boolean;
  readBy: readonly Reader[];
  /** Production settings: when a deployment must set it ("yes", or the condition). Unset: optional. */
  required?: string;
  /** Production settings: a value for .env.example (secrets get none: the file leaves them empty). */
  example?: string;
}

/** Every setting's metadata, keyed by its zod field. */
export const settingRegistry = z.registry<SettingMeta>();

/** Attaches the metadata to a field; call it last, on the field as it stands in the section's object. */
export function setting<T extends z.ZodType>(field: T, meta: SettingMeta): T {
  settingRegistry.add(field, meta);
  return field;
}

/**
 * Every process that talks to Temporal. Each of them also starts workflows, whose input carries the workflow
 * durations, so those are read by all of them too (and must be set alike everywhere).
 */
export const TEMPORAL_CLIENTS: readonly Reader[] = READERS.slice(0, READERS.indexOf('demo') + 1);
