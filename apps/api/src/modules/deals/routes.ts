import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export async function dealRoutes(_root: FastifyInstance, _ctx: AppContext): Promise<void> {}
