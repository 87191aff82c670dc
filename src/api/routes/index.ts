/**
 * Every endpoint of the HTTP API, each declared once in the file of its resource (src/api/endpoint.ts says how):
 * the app mounts this list, the OpenAPI document walks it in this order, and the HTTP client's types come from it.
 */
import type { RouteOf } from '../endpoint';
import { accountEndpoints } from './account';
import { alertEndpoints } from './alerts';
import { endUserEndpoints } from './end-users';
import { eventEndpoints } from './events';
import { quoteEndpoints } from './quotes';
import { rampEndpoints } from './ramps';
import { statementEndpoints } from './statement';

export const ENDPOINTS = [
  ...endUserEndpoints,
  ...quoteEndpoints,
  ...rampEndpoints,
  ...statementEndpoints,
  ...eventEndpoints,
  ...accountEndpoints,
  ...alertEndpoints,
];

export type ApiEndpoint = (typeof ENDPOINTS)[number];
/** `METHOD /path` of every endpoint. */
export type Route = RouteOf<ApiEndpoint>;
/** The endpoint of a route. */
export type EndpointAt<R extends Route> = ApiEndpoint extends infer E
  ? E extends ApiEndpoint
    ? RouteOf<E> extends R
      ? E
      : never
    : never
  : never;
