import { once } from 'node:events';
import { Router, type Response } from 'express';
import type { Logger } from 'pino';
import { parseStatementPeriod } from '../../client/statement';
import { statementWriter } from '../../client/statement-formats';
import { parseInput } from '../errors';
import { statementQuerySchema } from '../schemas';
import type { RampApi, TemporalCall } from '../types';

/**
 * GET /v1/statement?from=&to=&format=json|csv: the settlement statement, streamed row by row as it is read (bounded
 * memory whatever the period). The first page is read before the answer starts, so a failure there is a proper
 * error answer; one later cuts the answer off (a JSON statement then lacks its totals, a CSV one its total lines).
 */
export function statementRouter(ramp: RampApi, call: TemporalCall, logger: Logger): Router {
  const router = Router();
  router.get('/v1/statement', async (req, res) => {
    const { from, to, format = 'json' } = parseInput(statementQuerySchema, req.query, 'statement period');
    const period = parseStatementPeriod({ from, to });
    const items = ramp.statement(period);
    // The first page before the answer starts: a failure there is still an error answer.
    let first = await call(() => items.next());
    const writer = statementWriter(format, period);
    res.status(200);
    res.setHeader('content-type', writer.contentType);
    if (format === 'csv')
      res.setHeader(
        'content-disposition',
        `attachment; filename="statement-${period.from}-${period.to}.csv"`,
      );
    try {
      await write(res, writer.start());
      for (; !first.done; first = await items.next()) {
        if (res.destroyed) break;
        await write(res, writer.item(first.value));
      }
      res.end();
    } catch (error) {
      logger.warn({ err: { name: (error as Error).name } }, 'Statement cut off after it started');
      res.destroy();
    } finally {
      await items.return(undefined);
    }
  });
  return router;
}

/** Writes a chunk, waiting while the client's connection is full. */
async function write(res: Response, chunk: string): Promise<void> {
  if (!res.write(chunk)) await once(res, 'drain');
}
