/**
 * Child processes of the compiled build (or any binary) for tests that run the product as operators do: output
 * kept for assertions and written to a log file, waits on output or on an HTTP endpoint, and stops that report how
 * the process ended.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, type WriteStream } from 'node:fs';
import http from 'node:http';
import https from 'node:https';

export interface Ended {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export class Proc {
  output = '';
  readonly child: ChildProcess;
  readonly ended: Promise<Ended>;
  readonly #log: WriteStream;

  constructor(
    readonly name: string,
    command: string,
    args: string[],
    options: { env: NodeJS.ProcessEnv; cwd: string; logFile: string },
  ) {
    this.#log = createWriteStream(options.logFile);
    this.child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const take = (chunk: Buffer) => {
      this.output += chunk.toString();
      this.#log.write(chunk);
    };
    this.child.stdout!.on('data', take);
    this.child.stderr!.on('data', take);
    this.ended = new Promise((resolve) => {
      this.child.on('exit', (code, signal) => {
        this.#log.end();
        resolve({ code, signal });
      });
    });
  }

  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Resolves once the output matches; rejects with the output when the process ends first or time runs out. */
  async waitForOutput(pattern: RegExp, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.output)) {
      if (!this.running)
        throw new Error(`${this.name} ended before printing ${pattern}:\n${this.output.slice(-4000)}`);
      if (Date.now() > deadline)
        throw new Error(
          `${this.name} did not print ${pattern} within ${timeoutMs} ms:\n${this.output.slice(-4000)}`,
        );
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }

  /** Sends the signal and waits for the end, SIGKILL after `graceMs`. */
  async stop(signal: NodeJS.Signals = 'SIGTERM', graceMs = 45_000): Promise<Ended> {
    if (!this.running) return this.ended;
    this.child.kill(signal);
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    try {
      return await this.ended;
    } finally {
      clearTimeout(timer);
    }
  }
}

/** GET a URL (loopback, self-signed certificates accepted); status and body. */
export function httpGet(
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const get = url.startsWith('https:') ? https.get : http.get;
    const request = get(url, { headers, rejectUnauthorized: false, timeout: 10_000 }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('timeout', () => request.destroy(new Error(`GET ${url} timed out`)));
    request.on('error', reject);
  });
}

/** Polls until GET url answers 200, while `proc` runs. */
export async function waitForHttp200(url: string, proc: Proc, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      if ((await httpGet(url)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    if (!proc.running)
      throw new Error(`${proc.name} ended before ${url} answered:\n${proc.output.slice(-4000)}`);
    if (Date.now() > deadline)
      throw new Error(`${url} did not answer 200 within ${timeoutMs} ms:\n${proc.output.slice(-4000)}`);
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}
