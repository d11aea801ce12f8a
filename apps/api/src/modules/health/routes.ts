import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

/** Liveness and readiness probes (outside /v1, no envelope needed by load balancers, but we keep it). */
export async function healthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'success', message: 'ok', data: { up: true } }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await ctx.database.ping();
      return { status: 'success', message: 'ok', data: { database: ctx.database.kind } };
    } catch {
      return reply.code(503).send({ status: 'error', message: 'error.internal', data: { database: 'unreachable' } });
    }
  });
}
