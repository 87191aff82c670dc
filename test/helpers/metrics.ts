/** Reading a server's /metrics in tests: a GET over HTTPS with the local certificate, and one sample's value. */
import https from 'node:https';

/** GET over HTTPS, accepting the local self-signed certificate. */
export function getInsecure(url: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { rejectUnauthorized: false }, (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
      })
      .on('error', reject);
  });
}

/** The value of the first sample of `name` carrying every one of `labels` in Prometheus text; 0 when none does. */
export function metricValue(text: string, name: string, labels: Record<string, string>): number {
  const wanted = Object.entries(labels).map(([key, value]) => `${key}="${value}"`);
  const line = text
    .split('\n')
    .find(
      (candidate) => candidate.startsWith(`${name}{`) && wanted.every((label) => candidate.includes(label)),
    );
  return line ? Number(line.split(' ').pop()) : 0;
}
