import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';

export async function floorRoutes(_root: FastifyInstance, _ctx: AppContext): Promise<void> {}
