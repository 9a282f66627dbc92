import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestContext } from '../../api/request-context.js';
import { requestLogging } from '../../api/middleware/request-log.js';
import type { AppContext } from '../../shared/app/context.js';
import { BaseService } from '../../shared/domain/service.js';
import type { Infra } from '../../shared/infra/infra.js';
import { captureLogs } from '../support/ops.fixture.js';

/** A service that keeps state by assignment (as ChangesService does) and logs. */
class Counter extends BaseService {
  count = 0;
  bump(): number {
    this.count += 1;
    this.logger.warn({ count: this.count }, 'bumped');
    return this.count;
  }
}

function setUp() {
  const logs = captureLogs();
  const infra = { config: {}, logger: logs.logger, database: { db: {} } } as unknown as Infra;
  const counter = new Counter(infra);
  const ctx = { ...infra, services: { counter, plain: { n: 1 } } } as unknown as AppContext;
  // A request as the logging middleware leaves it: req.id set and its logger at hand.
  const req = { headers: { 'x-request-id': 'rid-1' }, url: '/livez', method: 'GET', originalUrl: '/livez', socket: {} } as unknown as IncomingMessage;
  const res = { setHeader: () => {}, on: () => {}, removeListener: () => {} };
  requestLogging(logs.logger)(req as never, res as never, () => {});
  return { logs, counter, ctx, req };
}

describe('requestContext', () => {
  it("binds the request id on the handler's logger and on its services' lines", () => {
    const { logs, ctx, req } = setUp();
    const scoped = requestContext(ctx, req);
    scoped.logger.info('from the handler');
    (scoped.services as unknown as { counter: Counter }).counter.bump();
    const lines = logs.lines();
    expect(lines.map((l) => [l.msg, l.reqId])).toEqual([
      ['from the handler', 'rid-1'],
      ['bumped', 'rid-1'],
    ]);
  });

  it('leaves the service itself: state written through the view lands on it, and its own logger stays the process one', () => {
    const { logs, counter, ctx, req } = setUp();
    const view = (requestContext(ctx, req).services as unknown as { counter: Counter }).counter;
    expect(view.bump()).toBe(1);
    expect(view.bump()).toBe(2);
    expect(counter.count).toBe(2);
    expect(view).toBeInstanceOf(Counter);
    counter.bump();
    expect(logs.lines().at(-1)).not.toHaveProperty('reqId');
    // Not a service: handed over as it is.
    expect((requestContext(ctx, req).services as unknown as { plain: object }).plain).toBe((ctx.services as unknown as { plain: object }).plain);
  });
});
