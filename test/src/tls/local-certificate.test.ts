import { mkdtemp, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { X509Certificate } from 'node:crypto';
import { getLocalCertificate } from '../../../src/tls/local-certificate';

describe('local certificate', () => {
  it('generates a self-signed certificate for localhost and 127.0.0.1 and caches it on disk', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'sandbox-tls-'));
    try {
      const first = await getLocalCertificate({ cacheDir: dir });
      const certificate = new X509Certificate(first.cert);
      expect(certificate.subjectAltName).toContain('DNS:localhost');
      expect(certificate.subjectAltName).toContain('IP Address:127.0.0.1');
      expect(certificate.checkIP('127.0.0.1')).toBe('127.0.0.1');
      expect(first.key).toContain('PRIVATE KEY');
      const stored = await readFile(path.join(dir, 'localhost.pem'), 'utf8');
      expect(stored).toContain(first.cert.trim());
      expect(await getLocalCertificate({ cacheDir: dir })).toBe(first);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
