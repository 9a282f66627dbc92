import { z } from 'zod';

/** Answers of the operations endpoints GET /livez and GET /readyz (no token). */

export const livenessSchema = z.object({
  data: z.object({ status: z.literal('live') }),
});
export type Liveness = z.infer<typeof livenessSchema>;
/** The one answer of GET /livez, from the API and from a worker's metrics server alike. */
export const liveness: Liveness = { data: { status: 'live' } };

export const dependencies = ['postgres', 'queue'] as const;
export type Dependency = (typeof dependencies)[number];

export const readinessSchema = z.object({
  data: z.object({
    status: z.enum(['ready', 'degraded']).describe('degraded: ready, but the queue refuses new jobs (see checks.queue)'),
    checks: z
      .object({ postgres: z.literal('ok'), queue: z.enum(['ok', 'degraded']) })
      .describe(
        'Each dependency answered within HEALTH_TIMEOUT_MS: Postgres `select 1`, the queue its job counts. queue is ' +
          'degraded while this process\'s last attempt to add jobs failed (e.g. Redis full under noeviction answers OOM).',
      ),
  }),
});
export type Readiness = z.infer<typeof readinessSchema>;
