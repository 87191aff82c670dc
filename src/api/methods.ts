/**
 * 405 for a method a known path does not serve, with `Allow` and the JSON error body (RFC 9110). The paths and
 * their methods are the declared endpoints' (the document's too), so the document and this answer cannot disagree;
 * a concrete path wins over a template that also matches it, as OpenAPI says (`/v1/events/test` is not a
 * `{webhookId}`).
 */
import type { RequestHandler } from 'express';
import { sendError } from '../http/errors';
import { concreteFirst } from './endpoint';

interface KnownPath {
  pattern: RegExp;
  allow: string;
  methods: ReadonlySet<string>;
}

/** Express matches paths without regard to case and with or without a trailing slash: so does this. */
function pathPattern(template: string): RegExp {
  const escaped = template
    .split(/\{[^}]+\}/)
    .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('[^/]+');
  return new RegExp(`^${escaped}/?$`, 'i');
}

/** `routes`: each path template with a method it serves (lower case, as the document writes it). */
export function methodNotAllowed(routes: ReadonlyArray<{ method: string; path: string }>): RequestHandler {
  const methodsOf = new Map<string, string[]>();
  for (const { method, path } of concreteFirst(routes))
    methodsOf.set(path, [...(methodsOf.get(path) ?? []), method.toUpperCase()]);
  const known: KnownPath[] = [...methodsOf].map(([template, methods]) => {
    // Express answers HEAD wherever it answers GET.
    if (methods.includes('GET')) methods.push('HEAD');
    return { pattern: pathPattern(template), allow: methods.join(', '), methods: new Set(methods) };
  });
  return (req, res, next) => {
    const path = known.find((candidate) => candidate.pattern.test(req.path));
    if (!path || path.methods.has(req.method)) return next();
    res.set('Allow', path.allow);
    sendError(res, 405, 'method_not_allowed', `${req.method} is not allowed here; allowed: ${path.allow}`);
  };
}
