/**
 * `npm run config:docs`: writes docs/configuration.md and .env.example from the settings' metadata in src/config
 * (src/config/reference-docs.ts). A test fails while either differs from what this writes.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { PROJECT_ROOT } from '../config/project-root';
import { renderConfigurationReference, renderEnvExample } from '../config/reference-docs';
import { commandFlags, defineCommand } from './args';

const COMMAND = defineCommand({
  usage: 'npm run config:docs --',
  summary: "Writes docs/configuration.md and .env.example from the settings' metadata in src/config.",
  flags: {},
});

export const CONFIG_DOCS = {
  'docs/configuration.md': renderConfigurationReference,
  '.env.example': renderEnvExample,
} as const;

if (require.main === module) {
  commandFlags(COMMAND);
  for (const [file, render] of Object.entries(CONFIG_DOCS)) {
    writeFileSync(path.join(PROJECT_ROOT, file), render());
    process.stdout.write(`wrote ${file}\n`);
  }
}
