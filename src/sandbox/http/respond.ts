/** Response helpers shared by every route: envelopes, errors, paging. */
import type { Request, Response } from 'express';
import { z } from 'zod';
import type { OperatorProfile } from '../../domain/operator-profile';
import { errorAnswer, parseOr400, type SandboxError } from '../errors';

export function sendData(res: Response, status: number, data: unknown, pagination?: unknown): void {
  res.status(status).json(pagination === undefined ? { data } : { data, pagination });
}

export function sendError(res: Response, error: SandboxError, profile: OperatorProfile): void {
  res.locals.errorCode = error.code;
  const { status, body } = errorAnswer(error, profile);
  res.status(status).json(body);
}

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  offset: number;
  totalRecord: number;
  totalPage: number;
}

/**
 * The profile's page and page-size parameters (`?page=N&limit=M` by default: page from 1, 10 a page, at most 100);
 * parameters of other names are ignored, as a server ignores what it does not know.
 */
export function paginate<T>(req: Request, all: T[], paging: OperatorProfile['paging']): Page<T> {
  const query = z.looseObject({
    [paging.pageParam]: z.coerce.number().int().min(1).default(1),
    [paging.limitParam]: z.coerce.number().int().min(1).max(paging.maxLimit).default(paging.defaultLimit),
  });
  const parsed = parseOr400(query, req.query, 'paging parameters') as Record<string, number>;
  const page = parsed[paging.pageParam]!;
  const limit = parsed[paging.limitParam]!;
  const offset = (page - 1) * limit;
  return {
    items: all.slice(offset, offset + limit),
    page,
    limit,
    offset,
    totalRecord: all.length,
    totalPage: Math.ceil(all.length / limit),
  };
}

/** A route parameter as a string (express 5 types them loosely). */
export function param(req: Request, name: string): string {
  const value: unknown = (req.params as Record<string, unknown>)[name];
  return typeof value === 'string' ? value : '';
}
