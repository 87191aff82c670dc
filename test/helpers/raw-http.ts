/**
 * HTTP/1.1 over a raw TCP or TLS socket, for requests no well-behaved client sends: malformed paths and headers,
 * oversize request lines, half-sent requests. One request per connection (`Connection: close` is the caller's).
 */
import net from 'node:net';
import tls from 'node:tls';

export interface RawTarget {
  host: string;
  port: number;
  tls?: boolean;
}

export interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export function connect(target: RawTarget): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = target.tls
      ? tls.connect(
          { host: target.host, port: target.port, rejectUnauthorized: false, servername: 'localhost' },
          () => resolve(socket),
        )
      : net.connect({ host: target.host, port: target.port }, () => resolve(socket));
    socket.once('error', reject);
  });
}

function parse(raw: Buffer): RawResponse {
  const text = raw.toString('utf8');
  const split = text.indexOf('\r\n\r\n');
  if (split < 0) throw new Error(`no complete response head in ${JSON.stringify(text.slice(0, 200))}`);
  const [statusLine, ...headerLines] = text.slice(0, split).split('\r\n');
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(':');
    headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
  }
  let body = text.slice(split + 4);
  if (headers['transfer-encoding'] === 'chunked') {
    let decoded = '';
    for (let rest = body; ;) {
      const eol = rest.indexOf('\r\n');
      const size = parseInt(rest.slice(0, eol), 16);
      if (!size) break;
      decoded += rest.slice(eol + 2, eol + 2 + size);
      rest = rest.slice(eol + 2 + size + 2);
    }
    body = decoded;
  } else if (headers['content-length'] !== undefined) {
    body = Buffer.from(body).subarray(0, Number(headers['content-length'])).toString('utf8');
  }
  return { status, headers, body };
}

/**
 * Sends `request` as is and reads until the server closes (or `timeoutMs` passes: an error). Write errors after
 * the server answered (it may stop reading an oversize request) do not matter: the answer is what counts.
 * `endAfterWrite` closes our side once sent, so a request cut short is known to be cut short.
 */
export async function rawRequest(
  target: RawTarget,
  request: string | Buffer,
  timeoutMs = 10_000,
  endAfterWrite = false,
): Promise<RawResponse> {
  const socket = await connect(target);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${timeoutMs} ms`));
    }, timeoutMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      try {
        resolve(parse(Buffer.concat(chunks)));
      } catch (error) {
        reject(error instanceof Error ? error : new Error(String(error)));
      }
    });
    if (endAfterWrite) socket.end(request);
    else socket.write(request);
  });
}

/** `METHOD path HTTP/1.1` with Host and Connection: close, the given headers, and the body with its length. */
export function requestText(
  method: string,
  path: string,
  headers: Record<string, string> = {},
  body?: string | Buffer,
): Buffer {
  const lines = [
    `${method} ${path} HTTP/1.1`,
    ...Object.entries({ host: 'localhost', connection: 'close', ...headers }).map(
      ([name, value]) => `${name}: ${value}`,
    ),
  ];
  const payload = body === undefined ? Buffer.alloc(0) : Buffer.from(body);
  if (body !== undefined && !Object.keys(headers).some((name) => name.toLowerCase() === 'content-length'))
    lines.push(`content-length: ${payload.length}`);
  return Buffer.concat([Buffer.from(`${lines.join('\r\n')}\r\n\r\n`, 'latin1'), payload]);
}

/** Opens a connection, sends `partial` (e.g. half a request line) and resolves with when the server closed it. */
export async function slowClient(
  target: RawTarget,
  partial: string,
): Promise<{ closed: Promise<number>; socket: net.Socket }> {
  const socket = await connect(target);
  const openedAt = Date.now();
  const closed = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - openedAt)));
  socket.on('error', () => undefined);
  socket.on('data', () => undefined);
  if (partial) socket.write(partial);
  return { closed, socket };
}

/** The error envelope every 4xx and 5xx of ours carries: `{ error: { code, message, issues? } }`, nothing else. */
export function isErrorEnvelope(body: unknown): boolean {
  if (typeof body !== 'object' || body === null || Object.keys(body).join() !== 'error') return false;
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return false;
  const { code, message, issues, ...rest } = error as Record<string, unknown>;
  return (
    typeof code === 'string' &&
    /^[a-z_]+$/.test(code) &&
    typeof message === 'string' &&
    message.length > 0 &&
    Object.keys(rest).length === 0 &&
    (issues === undefined || (Array.isArray(issues) && issues.every((issue) => typeof issue === 'string')))
  );
}
