/** `npm run openapi`: writes docs/openapi.json, the HTTP API's OpenAPI 3.1 document, from the declared endpoints. */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { openApiText } from '../api/openapi';
import { commandFlags, defineCommand } from './args';

const COMMAND = defineCommand({
  usage: 'npm run openapi',
  summary: 'Writes docs/openapi.json from the HTTP API endpoints (src/api/routes); commit the result.',
  flags: {},
});

function main(): void {
  commandFlags(COMMAND);
  const file = path.join(__dirname, '..', '..', 'docs', 'openapi.json');
  writeFileSync(file, openApiText());
  console.log(`Wrote ${path.relative(process.cwd(), file)}`);
}

main();
