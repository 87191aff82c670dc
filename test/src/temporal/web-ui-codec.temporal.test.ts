/**
 * npm start's Web UI can use its codec server whatever port the UI is on: the codec server's CORS origins are those of
 * the UI actually served (they were fixed to port 8233, so a UI on TEMPORAL_UI_PORT=9233 or a free port could not
 * decode anything). Same sequence as src/main.ts: plan the UI, start the codec server, start the dev server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { plannedWebUi, type TemporalServer, useTemporalServer } from '../../../src/temporal/temporal-server';
import { loadEncryptionConfig } from '../../../src/config/encryption';
import { loadTemporalConfig } from '../../../src/config/temporal';
import {
  devServerCodecArgs,
  type RunningCodecServer,
  startCodecServer,
} from '../../../src/temporal/codec-server';
import { freePort } from '../../../src/http/free-port';

describe('Web UI and codec server', () => {
  test('with TEMPORAL_UI_PORT=0 the UI gets a free port, and the codec server allows exactly that origin', async () => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'ramp-web-ui-'));
    let codec: RunningCodecServer | undefined;
    let server: TemporalServer | undefined;
    try {
      const temporalConfig = loadTemporalConfig({
        TEMPORAL_DEV_PORT: String(await freePort()),
        TEMPORAL_UI_PORT: '0',
        TEMPORAL_DATA_DIR: dataDir,
        TEMPORAL_NAMESPACE: 'web-ui-codec-test',
      });
      const encryption = loadEncryptionConfig({
        PAYLOAD_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
        CODEC_SERVER_PORT: '0',
      });
      const webUi = await plannedWebUi(temporalConfig);
      expect(webUi.port).not.toBe(8233);
      codec = await startCodecServer(encryption, { webUi });
      server = await useTemporalServer(
        temporalConfig,
        () => undefined,
        devServerCodecArgs(codec.endpoint),
        webUi,
        process.env,
      );

      const uiOrigin = new URL(server.uiUrl!).origin;
      expect(uiOrigin).toBe(`http://127.0.0.1:${webUi.port}`);
      expect((await fetch(server.uiUrl!)).status).toBe(200);
      // The UI was told where the codec server is...
      const settings = (await (await fetch(`${uiOrigin}/api/v1/settings`)).json()) as {
        Codec?: { Endpoint?: string };
      };
      expect(settings.Codec?.Endpoint).toBe(codec.endpoint);
      // ...and the browser may call it from the UI's origin (the preflight the UI's fetch makes), not from 8233.
      const preflight = (origin: string) =>
        fetch(`${codec!.endpoint}/decode`, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type,x-namespace',
          },
        });
      const fromUi = await preflight(uiOrigin);
      expect(fromUi.status).toBe(204);
      expect(fromUi.headers.get('access-control-allow-origin')).toBe(uiOrigin);
      expect((await preflight('http://127.0.0.1:8233')).status).toBe(403);
    } finally {
      await server?.stop();
      await codec?.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
