/**
 * How an endpoint of the HTTP API is declared: its method and path, the schemas of its path parameters, query and
 * body, its answers (a named component each), its error statuses and its handler, in one object. The app mounts the
 * declarations (src/api/mount.ts), the OpenAPI document walks them (src/api/openapi.ts), Idempotency-Key and 405
 * follow from them, and the HTTP client takes its paths and types from them (src/http-client/types.ts).
 */
import type { z } from 'zod';
import type { RampApi } from './types';

export type Method = 'get' | 'post';

/** The document's tags, in its order. */
export const TAGS = ['End users', 'Quotes', 'Ramps', 'Outcome events', 'Account', 'Alerts', 'Meta'] as const;

/** The error statuses an endpoint may declare beyond those every one answers (src/api/openapi.ts). */
export type ErrorStatus = 400 | 404 | 409 | 422;

/** A part of the request: its schema, and what the 400 refusing it calls it ("Invalid <what>"). */
export interface Input<S extends z.ZodType = z.ZodType> {
  what: string;
  schema: S;
  /** What an absent body is read as (so its issues name the missing fields). */
  whenAbsent?: unknown;
}

export const input = <S extends z.ZodType>(what: string, schema: S, whenAbsent?: unknown): Input<S> => ({
  what,
  schema,
  ...(whenAbsent === undefined ? {} : { whenAbsent }),
});

export interface Answer<S extends z.ZodType = z.ZodType> {
  /** A named component (registered with `component`, src/api/components.ts). */
  schema: S;
  description: string;
  /** The body is the component itself, not `{ data }` around it. */
  bare?: true;
  /** The answer can also be CSV (`format=csv`): what its lines are. */
  csv?: string;
}

type SuccessStatus = 200 | 201 | 202;
export type Answers = { [S in SuccessStatus]?: Answer };

/** An OpenAPI link: where what an endpoint answered can be read next. */
export interface Link {
  operationId: string;
  /** Parameter name -> runtime expression. */
  parameters: Record<string, string>;
  description: string;
}

/** An answer of one of the declared statuses. */
export class Reply<S extends number = number, D = unknown> {
  constructor(
    readonly status: S,
    readonly data: D,
  ) {}
}

/** An answer written out as it is read: its chunks go to the caller one by one, with backpressure. */
export class Streamed {
  constructor(
    readonly status: SuccessStatus,
    readonly headers: Record<string, string>,
    readonly chunks: AsyncGenerator<string>,
  ) {}
}

type Parsed<I> = I extends Input<infer S> ? z.output<S> : undefined;
type Data<A> = A extends Answer<infer S> ? z.output<S> : never;
type ReplyOf<A extends Answers> = { [S in keyof A & SuccessStatus]: Reply<S, Data<A[S]>> }[keyof A &
  SuccessStatus];
type IsUnion<T, U = T> = T extends unknown ? ([U] extends [T] ? false : true) : never;

/** What a handler answers: the data of the endpoint's one status, or a Reply naming which of its statuses. */
export type Result<A extends Answers> =
  ReplyOf<A> | Streamed | (IsUnion<keyof A> extends true ? never : Data<A[keyof A]>);

/** The names of a path's parameters: `{id}` -> 'id'. */
export type PathParameters<P extends string> = P extends `${string}{${infer N}}${infer Rest}`
  ? N | PathParameters<Rest>
  : never;

export interface Endpoint<
  M extends Method = Method,
  P extends string = string,
  Params extends Input | undefined = Input | undefined,
  Query extends Input | undefined = Input | undefined,
  Body extends Input | undefined = Input | undefined,
  A extends Answers = Answers,
> {
  method: M;
  /** OpenAPI's form: `/v1/end-users/{id}`. */
  path: P;
  operationId: string;
  summary: string;
  tag: (typeof TAGS)[number];
  params?: Params;
  query?: Query;
  body?: Body;
  answers: A;
  /** Error statuses beyond 400, 401, 500, 502 and 503 (and 409, 413, 415 and 422 for a POST). */
  errors: readonly ErrorStatus[];
  /** OpenAPI links of its answers, by name. */
  links?: Record<string, Link>;
  /** Runs once the request is parsed, under the API's deadline (src/api/types.ts TemporalCall). */
  handle(
    request: { params: Parsed<Params>; query: Parsed<Query>; body: Parsed<Body> },
    ramp: RampApi,
  ): Promise<Result<A>>;
}

/** Any declared endpoint, as the app mounts them and the document walks them. */
export type AnyEndpoint = Omit<Endpoint, 'handle'> & {
  handle(request: { params: unknown; query: unknown; body: unknown }, ramp: RampApi): Promise<unknown>;
};

/** The path parameters a schema names are those of the path, no more and no fewer. */
type ParameterNames<Params> = Params extends Input<infer S> ? keyof z.output<S> : never;
type ParametersMatch<P extends string, Params> = [ParameterNames<Params>, PathParameters<P>] extends [
  PathParameters<P>,
  ParameterNames<Params>,
]
  ? unknown
  : { pathParametersDifferFromTheSchema: PathParameters<P> };

/** Declares an endpoint: its types follow from its schemas, and its handler must answer what it declares. */
export function endpoint<
  const M extends Method,
  const P extends string,
  Params extends Input | undefined = undefined,
  Query extends Input | undefined = undefined,
  Body extends Input | undefined = undefined,
  A extends Answers = Answers,
>(
  declaration: Endpoint<M, P, Params, Query, Body, A> & ParametersMatch<P, Params>,
): Endpoint<M, P, Params, Query, Body, A> {
  return declaration;
}

/** Concrete paths first, as OpenAPI matches them (`/v1/events/test` is not a `{webhookId}`). */
export const concreteFirst = <E extends { path: string }>(endpoints: readonly E[]): E[] =>
  [...endpoints].sort((a, b) => Number(a.path.includes('{')) - Number(b.path.includes('{')));

/** `GET /v1/on-ramps/{orderReference}`: how the client names an endpoint. */
export type RouteOf<E> = E extends { method: infer M extends Method; path: infer P extends string }
  ? `${Uppercase<M>} ${P}`
  : never;
