/**
 * A loopback port that is free now, for a process about to be started with it (the dev server, its Web UI, the
 * services a test or bench launches).
 *
 * Port 0's answer lies in the kernel's ephemeral range, where any outgoing connection (a database client, a gRPC
 * channel) may take it before the new process binds it. So ports come from below that range, which only explicit
 * binds use, and below 32768, which Temporal's cluster_membership table stores in a smallint. One process never
 * hands out a port twice, and parallel Jest workers draw from separate slices of the range.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';

const LOWEST = 10_000;
const SMALLINT_LIMIT = 32_768;
const SLICES = 8;
const handedOut = new Set<number>();

/** The first port of the kernel's ephemeral range (Linux), or the usual default where it cannot be read. */
function ephemeralLow(): number {
  try {
    const [low] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    const parsed = Number(low);
    return Number.isInteger(parsed) && parsed > 0 ? parsed : SMALLINT_LIMIT;
  } catch {
    return SMALLINT_LIMIT;
  }
}

function bindable(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

function kernelChosenPort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, host, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/** The ports a process draws from: its Jest worker's slice of the range below the ephemeral one (none when empty). */
export function portSlice(workerId = process.env.JEST_WORKER_ID): { first: number; size: number } {
  const high = Math.min(ephemeralLow(), SMALLINT_LIMIT);
  const size = Math.max(0, Math.floor((high - LOWEST) / SLICES));
  return { first: LOWEST + (Number(workerId ?? 0) % SLICES) * size, size };
}

export async function freePort(host = '127.0.0.1'): Promise<number> {
  const { first, size } = portSlice();
  // A machine whose ephemeral range starts low leaves no room below it: the kernel's choice is all there is.
  if (size < 64) return kernelChosenPort(host);
  const offset = Math.floor(Math.random() * size);
  for (let step = 0; step < size; step += 1) {
    const candidate = first + ((offset + step) % size);
    if (handedOut.has(candidate)) continue;
    if (await bindable(candidate, host)) {
      handedOut.add(candidate);
      return candidate;
    }
  }
  throw new Error(`no free port on ${host} in ${first}-${first + size - 1}`);
}
