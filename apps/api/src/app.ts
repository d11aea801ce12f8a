/**
 * buildApp(config) returns the Fastify instance: database opened and migrated (and seeded when
 * configured), security headers, CORS, body limits, structured logs with request ids, OpenAPI at
 * /v1/docs, the envelope, authentication and every module. Tests use app.inject; the server listens.
 */
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { LogController, type FastifyInstance } from 'fastify';
import pino from 'pino';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';
import type { AppContext } from './context.ts';
import { migrateDatabase, openDatabase, withAdvisoryLock, type Database } from './db/client.ts';
import { seed, type SeedResult } from './db/seed.ts';
import { loggableUrl } from './modules/floors/feed-token.ts';
import { forgetSourceStats } from './modules/reports/service.ts';
import { completeRollupLevels } from './reports-data/rollups.ts';
import { assertProductionReady } from './lib/production-guard.ts';
import { createJobRunner } from './jobs/runner.ts';
import { modules } from './modules/index.ts';
import { JSTAG_LOADER_CSP_SOURCE } from './modules/builders/serve-routes.ts';
import { registerCors } from './plugins/cors.ts';
import { createSessionIssuer, createTokenService, registerAuth, resolveJwtSecret } from './plugins/auth.ts';
import { registerEnvelope, sendError } from './plugins/envelope.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import { registerTextGuard, registerZodValidation, zodToOpenApi } from './plugins/validation.ts';

export interface BuildOptions {
  /** Use an already opened database (tests share one per file); closed with the app unless keepDatabase. */
  database?: Database;
  keepDatabase?: boolean;
  /** Skip migrations and seeding (the database is known to be ready). */
  skipPrepare?: boolean;
}

/** Advisory lock of the rollup levels' build on PostgreSQL. */
const ROLLUPS_LOCK = 7263543;

export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<FastifyInstance> {
  const database =
    opts.database ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  let seeded: SeedResult | null = null;
  if (!opts.skipPrepare) {
    await migrateDatabase(database);
    seeded = await withAdvisoryLock(database, 7263542, () => seed(database, config));
  }
  // Production refuses to start while an account still has the demo password.
  await assertProductionReady(database, config).catch(async (err: unknown) => {
    if (!opts.database) await database.close();
    throw err;
  });
  const secret = await resolveJwtSecret(database, config.jwtSecret);
  const tokens = createTokenService(secret, { normal: config.tokenTtl, remember: config.tokenTtlRemember });
  const sessionIssuer = createSessionIssuer(database, tokens);
  const ctx: AppContext = { config, database, tokens, sessions: sessionIssuer };
  if (config.clockDayOfMonth !== null) {
    const day = config.clockDayOfMonth;
    ctx.now = () => {
      const d = new Date();
      if (d.getUTCDate() < day) d.setUTCDate(day);
      return d.getTime();
    };
  }

  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization', 'req.body.password'],
            // Buffered writes to stdout (flushed every 4 KB and at exit) rather than one write
            // system call per log line.
            stream: pino.destination({ dest: 1, sync: false, minLength: 4096 }),
          },
    trustProxy:
      typeof config.trustProxy === 'number'
        ? ((hops: number) => (_addr: string, hop: number) => hop < hops)(config.trustProxy)
        : config.trustProxy,
    bodyLimit: config.bodyLimit,
    requestIdHeader: 'x-request-id',
    genReqId: () => crypto.randomUUID(),
    return503OnClosing: true,
    // A URL the router cannot take (bad percent-encoding, a path parameter over maxParamLength)
    // never reaches the error handler: answer it in the envelope too (found by the fuzz test).
    frameworkErrors: (_error, request, reply) => sendError(request, reply, 400, 'error.invalid_value'),
    // One log line per request (below) instead of Fastify's two ("incoming request" and
    // "request completed"): half the logging work on every call, same information.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.decorate('ctx', ctx);
  if (seeded && Object.keys(seeded.rollupLevelsBuilt).length > 0)
    app.log.info({ levels: seeded.rollupLevelsBuilt }, 'reports: built the rollup levels the loaded data set lacked');
  // On PostgreSQL the rollups and levels a data set loaded by an earlier version lacks are built
  // once the server listens (reports use the others until then); an advisory lock keeps two
  // servers starting together from building them twice. Closing waits for the build.
  let building: Promise<void> | null = null;
  if (!opts.skipPrepare && config.env !== 'test' && database.kind === 'postgres')
    app.addHook('onListen', (done) => {
      building = withAdvisoryLock(database, ROLLUPS_LOCK, () => completeRollupLevels(database))
        .then((built) => {
          if (Object.keys(built).length === 0) return;
          forgetSourceStats(database);
          app.log.info({ levels: built }, 'reports: built the rollup levels the loaded data set lacked');
        })
        .catch((err: unknown) => app.log.error({ err }, 'reports: building the missing rollup levels failed'));
      done();
    });
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  app.addHook('onResponse', (request, reply, done) => {
    request.log.info(
      // A public floors feed URL holds its token: logged with the token's hint only.
      { method: request.method, url: loggableUrl(request.url), ip: request.ip, statusCode: reply.statusCode, responseTime: reply.elapsedTime },
      'request completed',
    );
    done();
  });

  registerZodValidation(app);
  registerTextGuard(app);
  registerEnvelope(app);

  registerSecurityHeaders(app, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // The JS tag builder's preview runs the async tag's one script (the same text in every tag)
        // in a sandboxed srcdoc frame, which inherits this policy: allowed by its hash (decision 040).
        scriptSrc: ["'self'", JSTAG_LOADER_CSP_SOURCE],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        // The VAST builder's preview plays an advertiser's media file from its CDN (decision 038):
        // media only, over HTTPS; media cannot run code.
        mediaSrc: ["'self'", 'https:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'", 'blob:'],
        workerSrc: ["'self'", 'blob:'],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The same rule as the CSP's frame-ancestors 'none', for browsers that only read this header.
    frameguard: { action: 'deny' },
    crossOriginEmbedderPolicy: false,
  });
  await registerCors(app, config.corsOrigins);
  await app.register(swagger, {
    openapi: {
      info: { title: 'Back Office API', version: '1.0.0', description: 'Every answer is the envelope {status, message, data}.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: zodToOpenApi,
  });
  await app.register(swaggerUi, {
    routePrefix: '/v1/docs',
    staticCSP: true,
    // The docs page's own CSP: no upgrade-insecure-requests (it breaks the page over plain http on a
    // LAN address) and inline styles allowed (Swagger UI sets some).
    transformStaticCSP: (header) =>
      header.replace(/\s*upgrade-insecure-requests;?/, '').replace("style-src 'self' https:", "style-src 'self' 'unsafe-inline'"),
  });

  registerAuth(app, database, tokens, config.identityCacheMs, sessionIssuer);

  // Background jobs (pg-boss, src/jobs): only when config.jobs. Started once every plugin is loaded
  // (ready), stopped when the app closes — preClose, so before the database is closed.
  const jobs = config.jobs ? createJobRunner(ctx, app.log) : null;
  app.decorate('jobs', jobs);
  if (jobs) {
    app.addHook('onReady', async () => jobs.start());
    app.addHook('preClose', async () => jobs.stop());
  }

  for (const mod of modules) {
    await app.register(async (scope) => mod(scope, ctx));
  }

  const webDist = config.webDist;
  const indexHtml = webDist ? path.join(webDist, 'index.html') : null;
  if (webDist && indexHtml && fs.existsSync(indexHtml)) {
    await app.register(async (scope) => {
      // The build writes .br and .gz next to each text file (apps/web/vite.config.ts), and the
      // answer depends on Accept-Encoding: caches must know (@fastify/static does not say so).
      // Hashed file names under /assets/ never change: cached for a year (set here, after
      // @fastify/static's own max-age=0).
      scope.addHook('onSend', (request, reply, payload, done) => {
        const vary = reply.getHeader('vary');
        reply.header('vary', vary ? `${String(vary)}, Accept-Encoding` : 'Accept-Encoding');
        if (request.url.startsWith('/assets/') && reply.statusCode === 200) reply.header('cache-control', 'public, max-age=31536000, immutable');
        done(null, payload);
      });
      await scope.register(fastifyStatic, {
        root: webDist,
        wildcard: false,
        index: false,
        preCompressed: true,
      });
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const isApi = url.startsWith('/v1') || url.startsWith('/healthz') || url.startsWith('/readyz');
    // A missing hashed asset is a 404, never index.html (a stale page would run HTML as a script).
    const isAsset = url.startsWith('/assets/');
    if (!isApi && !isAsset && (request.method === 'GET' || request.method === 'HEAD') && indexHtml && fs.existsSync(indexHtml)) {
      // The SPA's client-side routes (/en/login, /es/reports/…) all get index.html.
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(fs.createReadStream(indexHtml));
    }
    return sendError(request, reply, 404, 'error.not_found');
  });

  app.addHook('onClose', async () => {
    await building;
    if (!opts.keepDatabase) await database.close();
  });
  return app;
}
