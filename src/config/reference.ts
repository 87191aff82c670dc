/**
 * Every setting the product reads, in the order the reference lists them: each section's zod schema with the
 * metadata of its fields (src/config/setting.ts). docs/configuration.md and .env.example are rendered from this
 * (src/config/reference-docs.ts).
 */
import type { z } from 'zod';
import { apiEnv } from './api';
import { clientWebhooksEnv } from './client-webhooks';
import { databaseEnv } from './database';
import { demoEnv } from './demo';
import { encryptionEnv } from './encryption';
import { loggingEnv } from './logging';
import { observabilityEnv } from './observability';
import { operationsEnv } from './operations';
import { operatorEnv } from './operator';
import { receiverEnv } from './receiver';
import { sandboxEnv } from './sandbox';
import { type SettingGroup, type SettingMeta, settingRegistry } from './setting';
import { temporalEnv } from './temporal';
import { temporalCliEnv } from './temporal-cli';
import { timingsEnv } from './timings';
import { workerEnv } from './worker';

/** A section's schema: an object of settings, possibly with cross-field checks. */
type SectionSchema = { shape: Record<string, z.ZodType> };

export const SETTING_SECTIONS: ReadonlyArray<{ title: string; schema: SectionSchema }> = [
  { title: 'Temporal', schema: temporalEnv },
  { title: 'Database', schema: databaseEnv },
  { title: 'Operator', schema: operatorEnv },
  { title: 'Webhook receiver', schema: receiverEnv },
  { title: 'HTTP API', schema: apiEnv },
  { title: 'Outcome events', schema: clientWebhooksEnv },
  { title: 'Ramp processes', schema: timingsEnv },
  { title: 'Operations', schema: operationsEnv },
  { title: 'Worker', schema: workerEnv },
  { title: 'Observability', schema: observabilityEnv },
  { title: 'Logging', schema: loggingEnv },
  { title: 'Payload encryption', schema: encryptionEnv },
  { title: 'Demo', schema: demoEnv },
  { title: 'Temporal binaries', schema: temporalCliEnv },
  { title: 'Sandbox operator', schema: sandboxEnv },
];

export interface Setting extends SettingMeta {
  name: string;
  /** The title of the first section that reads it. */
  section: string;
}

/**
 * Every setting once, in section order. A name two sections read (the same field, shared) is listed where it is
 * first read; a field without metadata, or one name with two different fields, is a mistake in src/config.
 */
export function allSettings(): Setting[] {
  const fields = new Map<string, z.ZodType>();
  const settings: Setting[] = [];
  for (const { title, schema } of SETTING_SECTIONS) {
    for (const [name, field] of Object.entries(schema.shape)) {
      const seen = fields.get(name);
      if (seen) {
        if (seen !== field) throw new Error(`${name} is read by two different fields: share one`);
        continue;
      }
      const meta = settingRegistry.get(field);
      if (!meta) throw new Error(`${name} (${title}) has no setting metadata: wrap its field in setting()`);
      fields.set(name, field);
      settings.push({ name, section: title, ...meta });
    }
  }
  return settings;
}

export const settingsOf = (group: SettingGroup): Setting[] =>
  allSettings().filter((setting) => setting.group === group);
