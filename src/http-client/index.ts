/**
 * The HTTP client as a package: `import { RampHttpClient } from 'ramp-orchestrator/http'` (package.json `exports`,
 * built into dist/ by the `prepare` script). Needs only the API's URL and key; for backends beside the workers that
 * reach Temporal, `ramp-orchestrator/client` has the Temporal-backed RampClient.
 */
export { RampHttpClient, type RampHttpClientOptions } from './client';
export { RampApiError } from './errors';
export type * from './types';
