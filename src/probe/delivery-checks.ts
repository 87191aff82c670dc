/**
 * What deliveries carry: the receiver keeps the header names of the first deliveries of each kind
 * (src/webhooks/delivery-headers.ts) in /readyz's details, which the probe reads with METRICS_TOKEN. The spec does not
 * say whether deliveries are signed; we assume not (the recipient URL's secret segment is their credential), and a
 * header that looks like a signature contradicts that.
 */
import http from 'node:http';
import https from 'node:https';
import { isLoopbackHost } from '../http/host';
import type { DeliveryHeadersOfKind } from '../webhooks/delivery-headers';
import type { ProbeContext } from './context';

const ASSUMPTION = "Deliveries are not signed: the recipient URL's secret segment is their credential";
const KEY = 'src/config/receiver.ts (recipient URL secrets)';

/** GET of the readyz details; the receiver's own certificate is accepted only on this machine. */
function readDetails(
  url: URL,
  token: string | undefined,
  timeoutMs: number,
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const get = url.protocol === 'https:' ? https.get : http.get;
    const request = get(
      url,
      {
        timeout: timeoutMs,
        rejectUnauthorized: !isLoopbackHost(url.hostname),
        headers: token ? { authorization: `Bearer ${token}` } : {},
      },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          let body: unknown;
          try {
            body = JSON.parse(text);
          } catch {
            body = undefined;
          }
          resolve({ status: response.statusCode ?? 0, body });
        });
      },
    );
    request.on('timeout', () => request.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    request.on('error', reject);
  });
}

export async function checkDeliveries(ctx: ProbeContext): Promise<void> {
  const { receiver, timeoutMs } = ctx.options;
  if (!receiver)
    return ctx.report.notCheckable(KEY, ASSUMPTION, "the receiver's /readyz: --receiver <https://host:port>");
  let answer: { status: number; body: unknown };
  const url = new URL(receiver.readyzUrl);
  try {
    answer = await readDetails(url, receiver.token?.reveal(), timeoutMs);
  } catch (error) {
    return ctx.report.notCheckable(
      KEY,
      ASSUMPTION,
      `a receiver answering at ${url.origin} (${(error as Error).message}); --receiver <url>`,
    );
  }
  const kinds = (answer.body as { deliveryHeaders?: Record<string, DeliveryHeadersOfKind> } | undefined)
    ?.deliveryHeaders;
  if (!kinds)
    return ctx.report.notCheckable(
      KEY,
      ASSUMPTION,
      `/readyz details (HTTP ${answer.status}: is METRICS_TOKEN the receiver's?)`,
    );
  const entries = Object.entries(kinds);
  if (entries.length === 0)
    return ctx.report.notCheckable(
      KEY,
      ASSUMPTION,
      'a delivery to the receiver (none has arrived since it started)',
    );
  const signed = entries.filter(([, seen]) => seen.signatureLike.length > 0);
  const seen = entries
    .map(([kind, of]) => `${kind} (${of.deliveries}): ${of.headerNames.join(' ')}`)
    .join('; ');
  ctx.report.verdict(
    KEY,
    ASSUMPTION,
    signed.length === 0,
    signed.length === 0
      ? seen
      : `signature-like: ${signed.map(([kind, of]) => `${kind}: ${of.signatureLike.join(', ')}`).join('; ')}; all: ${seen}`,
  );
}
