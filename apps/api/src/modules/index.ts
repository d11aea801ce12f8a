/** Every API module, registered in this order by buildApp. Add new modules here. */
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.ts';
import { healthRoutes } from './health/routes.ts';

export type ModuleRoutes = (app: FastifyInstance, ctx: AppContext) => Promise<void>;

export const modules: ModuleRoutes[] = [healthRoutes];
