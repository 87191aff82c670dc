/**
 * The probe's own calls to the operator: one request by a route template, answered with its status and body
 * whatever they are (the probe wants to see a refusal, not to be stopped by it). Every answer is handed to the
 * sample store before anything else reads it. Redirects are refused, as the operator client refuses them.
 */
import { resolveRoute } from '../operator/http';
import type { SampleStore } from './samples';

export interface WireAnswer {
  /** 0 when no answer came (network error, timeout). */
  status: number;
  /** Parsed JSON, the text when it is not JSON, undefined when empty. */
  body: unknown;
  /** Why no answer came. */
  failure?: string;
}

export interface WireRequest {
  /** The route this call exercises (its sample is filed under it). */
  operation: string;
  template: string;
  params?: Record<string, string>;
  query?: Record<string, string | number>;
  body?: unknown;
  headers?: Record<string, string>;
}

export class Wire {
  constructor(
    private readonly baseUrl: string,
    private readonly timeoutMs: number,
    private readonly samples: SampleStore,
  ) {}

  async send(request: WireRequest): Promise<WireAnswer> {
    const { method, path } = resolveRoute(request.template, request.params);
    const url = new URL(this.baseUrl.replace(/\/+$/, '') + path);
    for (const [key, value] of Object.entries(request.query ?? {})) url.searchParams.set(key, String(value));
    const headers: Record<string, string> = { accept: 'application/json', ...request.headers };
    const init: RequestInit = {
      method,
      headers,
      redirect: 'error',
      signal: AbortSignal.timeout(this.timeoutMs),
    };
    if (request.body !== undefined) {
      headers['content-type'] = 'application/json';
      init.body = JSON.stringify(request.body);
    }
    let answer: WireAnswer;
    try {
      const response = await fetch(url, init);
      answer = { status: response.status, body: parsed(await response.text()) };
    } catch (error) {
      const { name, cause } = error as { name?: string; cause?: { message?: string } };
      const reason = name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : cause?.message;
      return { status: 0, body: undefined, failure: reason ?? 'network error' };
    }
    this.samples.save({
      operation: request.operation,
      method,
      route: request.template.replace(/^[A-Z]+\s+/, ''),
      status: answer.status,
      body: answer.body,
    });
    return answer;
  }
}

function parsed(text: string): unknown {
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

export const isSuccess = (answer: WireAnswer): boolean => answer.status >= 200 && answer.status < 300;
