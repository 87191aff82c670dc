/**
 * A self-signed certificate for localhost / 127.0.0.1 / ::1 (the `selfsigned` package, EC P-256, SHA-256),
 * for the local webhook receiver: the operator only accepts https recipient URLs.
 *
 * Cached in memory per process and, unless `cacheDir` is null, on disk under `.data/tls/` (git-ignored) as
 * one PEM file holding key and certificate (written atomically, so parallel processes never pair a key with
 * another process's certificate). A cached certificate that expires within a week is replaced.
 */
import { randomUUID, X509Certificate } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { generate } from 'selfsigned';

export interface LocalCertificate {
  /** PEM private key */
  key: string;
  /** PEM certificate */
  cert: string;
}

export interface LocalCertificateOptions {
  /** Folder of the on-disk cache; null keeps it in memory only. Default: `<cwd>/.data/tls`. */
  cacheDir?: string | null;
  /** Validity of a new certificate in days (default 365). */
  validityDays?: number;
}

const FILE_NAME = 'localhost.pem';
const RENEW_BEFORE_MS = 7 * 24 * 3_600_000;
const memory = new Map<string, Promise<LocalCertificate>>();

export function defaultCertificateDir(): string {
  return path.resolve(process.cwd(), '.data', 'tls');
}

export function getLocalCertificate(options: LocalCertificateOptions = {}): Promise<LocalCertificate> {
  const cacheDir = options.cacheDir === undefined ? defaultCertificateDir() : options.cacheDir;
  const key = cacheDir ?? ':memory:';
  let pending = memory.get(key);
  if (!pending) {
    pending = load(cacheDir, options.validityDays ?? 365);
    memory.set(key, pending);
    pending.catch(() => memory.delete(key));
  }
  return pending;
}

async function load(cacheDir: string | null, validityDays: number): Promise<LocalCertificate> {
  if (cacheDir !== null) {
    const cached = await readCached(path.join(cacheDir, FILE_NAME));
    if (cached) return cached;
  }
  const created = await generateLocalCertificate(validityDays);
  if (cacheDir !== null) {
    await mkdir(cacheDir, { recursive: true });
    const target = path.join(cacheDir, FILE_NAME);
    const temporary = `${target}.${process.pid}.${randomUUID()}.tmp`;
    await writeFile(temporary, `${created.key.trim()}\n${created.cert.trim()}\n`, { mode: 0o600 });
    await rename(temporary, target);
  }
  return created;
}

async function readCached(file: string): Promise<LocalCertificate | null> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    return null;
  }
  const key = /-----BEGIN (?:EC |RSA )?PRIVATE KEY-----[\s\S]+?-----END (?:EC |RSA )?PRIVATE KEY-----/.exec(
    text,
  )?.[0];
  const cert = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(text)?.[0];
  if (key === undefined || cert === undefined) return null;
  try {
    const validTo = Date.parse(new X509Certificate(cert).validTo);
    if (!(validTo - Date.now() > RENEW_BEFORE_MS)) return null;
  } catch {
    return null;
  }
  return { key: `${key}\n`, cert: `${cert}\n` };
}

export async function generateLocalCertificate(validityDays = 365): Promise<LocalCertificate> {
  const notBeforeDate = new Date(Date.now() - 60_000);
  const notAfterDate = new Date(notBeforeDate.getTime() + validityDays * 24 * 3_600_000);
  const pems = await generate([{ name: 'commonName', value: 'localhost' }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notBeforeDate,
    notAfterDate,
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { key: pems.private, cert: pems.cert };
}
