/** Response helpers shared by every route: envelopes, errors, paging. */
import type { Request, Response } from 'express';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../domain/operator-routes';
import { errorBodyOf, parseOr400, type SandboxError } from '../errors';

export function sendData(res: Response, status: number, data: unknown, pagination?: unknown): void {
  res.status(status).json(pagination === undefined ? { data } : { data, pagination });
}

export function sendError(res: Response, error: SandboxError): void {
  res.locals.errorCode = error.code;
  res.status(error.status).json(errorBodyOf(error));
}

const pagingQuery = z.looseObject({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).default(DEFAULT_PAGE_SIZE),
});

export interface Page<T> {
  items: T[];
  page: number;
  limit: number;
  offset: number;
  totalRecord: number;
  totalPage: number;
}

/** `?page=N&limit=M` (page from 1, limit 10 by default, at most 100). */
export function paginate<T>(req: Request, all: T[]): Page<T> {
  const { page, limit } = parseOr400(pagingQuery, req.query, 'paging parameters');
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
