import { readFileSync } from 'node:fs';
import net from 'node:net';
import { freePort, portSlice } from '../../../src/http/free-port';

const ephemeralLow = (() => {
  try {
    return Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
  } catch {
    return 32_768;
  }
})();

describe('freePort', () => {
  it('hands out distinct bindable ports below the ephemeral range and below 32768', async () => {
    const ports: number[] = [];
    for (let index = 0; index < 40; index += 1) ports.push(await freePort());
    expect(new Set(ports).size).toBe(ports.length);
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(Math.min(ephemeralLow, 32_768));
    }
    // Each one binds: nothing else holds it.
    for (const port of ports.slice(0, 5)) {
      const server = net.createServer();
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', resolve);
      });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    }
  });

  it('skips every port something else listens on, and says so when its slice is full', async () => {
    const previous = process.env.JEST_WORKER_ID;
    process.env.JEST_WORKER_ID = '5';
    const { first, size } = portSlice();
    const left = [first + 7, first + Math.floor(size / 2), first + size - 1];
    const held: net.Server[] = [];
    try {
      for (let port = first; port < first + size; port += 1) {
        if (left.includes(port)) continue;
        const server = net.createServer();
        const bound = await new Promise<boolean>((resolve) => {
          server.once('error', () => resolve(false));
          server.listen(port, '127.0.0.1', () => resolve(true));
        });
        if (bound) held.push(server);
      }
      const answers = [await freePort(), await freePort(), await freePort()];
      expect(answers.sort((a, b) => a - b)).toEqual(left);
      await expect(freePort()).rejects.toThrow(`no free port on 127.0.0.1 in ${first}-${first + size - 1}`);
    } finally {
      await Promise.all(held.map((server) => new Promise((resolve) => server.close(resolve))));
      if (previous === undefined) delete process.env.JEST_WORKER_ID;
      else process.env.JEST_WORKER_ID = previous;
    }
  });

  it('draws from the slice of its Jest worker, so parallel workers do not collide', async () => {
    const previous = process.env.JEST_WORKER_ID;
    try {
      const slices = new Map<string, number[]>();
      for (const worker of ['1', '2']) {
        process.env.JEST_WORKER_ID = worker;
        const ports: number[] = [];
        for (let index = 0; index < 10; index += 1) ports.push(await freePort());
        slices.set(worker, ports);
      }
      const one = slices.get('1')!;
      const two = slices.get('2')!;
      expect(Math.max(...one) < Math.min(...two) || Math.max(...two) < Math.min(...one)).toBe(true);
    } finally {
      if (previous === undefined) delete process.env.JEST_WORKER_ID;
      else process.env.JEST_WORKER_ID = previous;
    }
  });
});
