/**
 * The reference API as a Fastify instance. `buildApp` takes an open database and the config, so
 * tests run it in-process (`app.inject`) on a fresh in-memory PGlite and `main.ts` runs it for real.
 */
import Fastify, { type FastifyInstance } from 'fastify';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import {
  validatorCompiler,
  jsonSchemaTransform,
  hasZodFastifySchemaValidationErrors,
  isResponseSerializationError,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { Config } from './config';
import type { AppContext, RouteModule } from './lib/app-context';
import type { Database } from './db/client';
import { HttpError, issuesToFieldMap, RateLimitedError } from './lib/errors';
import { identify, type FoundSession } from './lib/auth';
import { SessionCache } from './lib/session-cache';
import { createPageRenderer, pickEncoding } from './page-render';
import { SettingsService } from './lib/settings';
import { parseQuery } from './lib/query';
import { Outbox } from './lib/outbox';
import { createMailer } from './lib/mailer';
import { errorForLog, redactUrl, requestForLog } from './lib/log-safety';
import { clientDataError, nulInInput } from './lib/input-safety';
import { applySecurityHeaders, inlineScriptHashes, pagePolicy } from './lib/security-headers';
import { registerThrottle, Throttle } from './lib/rate-limit';
import { compiledSerializerCompiler } from './lib/response-serializer';

export type { AppContext, RouteModule };

/** Every area's routes. Each area adds its module here. */
import { authRoutes } from './routes/auth.routes';
import { usersRoutes } from './routes/users.routes';
import { networkRoutes } from './routes/network.routes';
import { walletRoutes } from './routes/wallet.routes';
import { payoutRoutes } from './routes/payout.routes';
import { ordersRoutes } from './routes/orders.routes';
import { historyRoutes } from './routes/history.routes';
import { homeRoutes } from './routes/home.routes';
import { preferencesRoutes } from './routes/preferences.routes';
import { referralRoutes } from './routes/referral.routes';
import { accountRoutes } from './routes/account.routes';
import { contactRoutes } from './routes/contact.routes';
import { addressesRoutes } from './routes/addresses.routes';
import { crmRoutes } from './routes/crm.routes';
import { crmSalesRoutes } from './routes/crm-sales.routes';
import { crmDashboardRoutes } from './routes/crm-dashboard.routes';
import { accountHubRoutes } from './routes/account-hub.routes';
import { payoutDestinationRoutes } from './routes/payout-destination.routes';
import { notificationSettingsRoutes } from './routes/notification-settings.routes';
import { twoFactorRoutes } from './routes/two-factor.routes';
import { flowSiteRoutes } from './routes/flow-site.routes';
import { kycRoutes } from './routes/kyc.routes';
import { profileRoutes } from './routes/profile.routes';
import { shopRoutes } from './routes/shop.routes';
import { packagesRoutes } from './routes/packages.routes';
import { otcRoutes } from './routes/otc.routes';
import { mailRoutes } from './routes/mail.routes';
import { supportRoutes } from './routes/support.routes';
import { storiesRoutes } from './routes/stories.routes';
import { supportSnapshotRoutes } from './routes/support-snapshot.routes';
const ROUTES: RouteModule[] = [
  authRoutes,
  usersRoutes,
  networkRoutes,
  walletRoutes,
  payoutRoutes,
  ordersRoutes,
  historyRoutes,
  homeRoutes,
  preferencesRoutes,
  referralRoutes,
  accountRoutes,
  addressesRoutes,
  contactRoutes,
  accountHubRoutes,
  payoutDestinationRoutes,
  notificationSettingsRoutes,
  twoFactorRoutes,
  kycRoutes,
  profileRoutes,
  shopRoutes,
  packagesRoutes,
  otcRoutes,
  mailRoutes,
  supportRoutes,
  storiesRoutes,
  supportSnapshotRoutes,
  crmRoutes,
  crmSalesRoutes,
  crmDashboardRoutes,
];

/** The API's paths: everything under /api/, plus the spec's alternative logout path and KYC delete path (spec §7). */
const isApiPath = (url: string) => url.startsWith('/api/') || url.split('?')[0] === '/auth/logout' || url.startsWith('/referrals/');

export async function buildApp(database: Database, config: Config, extraRoutes: RouteModule[] = []): Promise<FastifyInstance> {
  const app = Fastify({
    // Nothing secret in the log: URLs redacted, failed queries without their parameters (server/lib/log-safety.ts).
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, serializers: { req: requestForLog, err: errorForLog }, ...(config.logStream ? { stream: config.logStream } : {}) },
    bodyLimit: 64 * 1024,
    routerOptions: { querystringParser: parseQuery },
    trustProxy: false,
    ajv: undefined,
  });
  app.setValidatorCompiler(validatorCompiler);
  // Answers checked against their schemas in tests and development; in production written by serialisers
  // compiled from those schemas (server/lib/response-serializer.ts).
  app.setSerializerCompiler(compiledSerializerCompiler(process.env.NODE_ENV !== 'production'));

  const settings = new SettingsService(database.db, () => config.demoMode);
  // Other processes on the database may change the settings: their notices drop this one's cache.
  const unfollow = await settings.follow(database);
  app.addHook('onClose', async () => unfollow());
  const mailer = config.smtpUrl ? createMailer(config.smtpUrl, config.mailFrom) : null;
  const outbox = new Outbox(database.db, app.log, { isDemo: () => config.demoMode, mailer });
  // E-mails leave once their transaction commits, from whichever server hears of it first.
  const unfollowOutbox = await outbox.follow(database);
  app.addHook('onClose', async () => {
    await unfollowOutbox();
    await outbox.settled();
    mailer?.close();
  });
  const throttle = new Throttle(database, config);
  const ctx: AppContext = {
    database,
    config,
    settings,
    outbox,
    throttle,
    isDemo: () => config.demoMode,
    async envelope(req, data) {
      const q = req.query as Record<string, unknown> | undefined;
      if (req.method === 'GET' && q && q.load_modules === '1') {
        return { data, loaded_modules: await settings.moduleData(req.member) };
      }
      return { data };
    },
  };
  app.decorate('ctx', ctx);
  app.decorateRequest('member', null);
  app.decorateRequest('sessionId', null);

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof HttpError) {
      if (err instanceof RateLimitedError) reply.header('Retry-After', String(err.retryAfterSeconds));
      return reply.status(err.statusCode).send({ error_code: err.errorCode, message: err.message, errors: err.errors });
    }
    if (hasZodFastifySchemaValidationErrors(err)) {
      const where = (err as { validationContext?: string }).validationContext;
      // fastify-type-provider-zod spreads each zod issue into params (code → keyword, path → instancePath);
      // zod leaves the offending input out, so it is read back from the request (missing vs wrong type).
      const source = where === 'querystring' ? req.query : where === 'params' ? req.params : where === 'headers' ? req.headers : req.body;
      const issues = err.validation.map((v) => {
        const path = v.instancePath.split('/').filter(Boolean);
        let input: unknown = source;
        for (const k of path) input = input !== null && typeof input === 'object' ? (input as Record<string, unknown>)[k] : undefined;
        return { input, ...(v.params as object), code: v.keyword, message: v.message, path };
      });
      return reply.status(422).send({
        error_code: 'validation_error',
        message: 'The given data was invalid.',
        errors: issuesToFieldMap(issues as never, where === 'querystring' || where === 'params' ? '' : ''),
      });
    }
    if (isResponseSerializationError(err)) {
      req.log.error({ err, url: redactUrl(req.url) }, 'response did not match its schema');
      return reply.status(500).send({ error_code: 'server_error', message: 'Internal server error', errors: {} });
    }
    const e = err as { statusCode?: number; code?: string; message?: string };
    if (e.statusCode === 429) {
      return reply.status(429).send({ error_code: 'rate_limited', message: e.message ?? 'Too many requests', errors: {} });
    }
    if (e.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return reply.status(413).send({ error_code: 'validation_error', message: 'Payload too large', errors: { _body: ['validation:tooLarge'] } });
    }
    if (e.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return reply.status(415).send({ error_code: 'validation_error', message: 'Unsupported media type', errors: { _body: ['validation:unsupportedMediaType'] } });
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      // Malformed JSON, empty JSON body, bad content length…
      return reply
        .status(e.statusCode === 413 ? 413 : 400)
        .send({ error_code: 'validation_error', message: 'Malformed request', errors: { _body: ['validation:malformedBody'] } });
    }
    const clientFault = clientDataError(err);
    if (clientFault) {
      req.log.warn({ err }, 'the database refused the input');
      return reply.status(clientFault.statusCode).send({ error_code: clientFault.errorCode, message: clientFault.message, errors: clientFault.errors });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error_code: 'server_error', message: 'Internal server error', errors: {} });
  });

  // JSON bodies only (plus form-encoded, spec §7); an empty JSON body reads as {}.
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_req, body, done) => {
    const text = String(body ?? '').trim();
    if (!text) return done(null, {});
    try {
      done(null, JSON.parse(text));
    } catch {
      const err = new Error('Malformed JSON') as Error & { statusCode: number };
      err.statusCode = 400;
      done(err, undefined);
    }
  });
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(String(body))));
  });

  // Throttling counted in the database (routes name their limits in `config.throttle`).
  registerThrottle(app, throttle);

  await app.register(import('@fastify/swagger'), {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Upline member back office API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, appKey: { type: 'apiKey', in: 'header', name: 'X-App-Key' } } },
    },
    transform: jsonSchemaTransform,
  });

  // Every /api call (and the spec's alternative logout path) carries the application key; the caller (if any) is identified from its token.
  // Verified sessions kept for a moment: dropped on any change of sessions or members by any process, by
  // every statement of this one that may write, and by every call that may write, as it answers
  // (server/lib/session-cache.ts).
  const sessionCache = new SessionCache<FoundSession>(config.sessionCacheMs ?? 0);
  const unfollowSessions = await sessionCache.follow(database);
  const unwatchWrites = database.onWrite?.(() => sessionCache.clear());
  app.addHook('onClose', async () => {
    unwatchWrites?.();
    await unfollowSessions();
  });
  const who = identify(database.db, sessionCache);
  // A caller whose session is kept goes on at once; only a lookup is waited for.
  app.addHook('onRequest', (req, reply, done) => {
    if (!isApiPath(req.url) || req.url.startsWith('/api/openapi.json')) return done();
    if (req.headers['x-app-key'] !== config.appKey) {
      reply.status(403).send({ error_code: 'invalid_app_key', message: 'Missing or wrong application key', errors: {} });
      return;
    }
    const looking = who(req);
    if (looking) looking.then(() => done(), done);
    else done();
  });
  // After validation, before any handler: a NUL character in the query string or body is refused (422).
  // (These hooks do not wait for anything: they answer at once rather than through a promise.)
  app.addHook('preHandler', (req, _reply, done) => {
    const nul = nulInInput(req);
    if (nul) done(nul);
    else done();
  });
  app.addHook('onSend', (req, reply, payload, done) => {
    // A call that may write drops the kept sessions as it answers (see above).
    if (req.method !== 'GET' && req.method !== 'HEAD' && req.method !== 'OPTIONS') sessionCache.clear();
    // Browser protections on every answer (server/lib/security-headers.ts); pages set their own policy below.
    applySecurityHeaders(reply, req.member !== null && req.member !== undefined);
    done(null, payload);
  });

  await app.register(async (api) => {
    for (const r of [...ROUTES, ...extraRoutes]) await r(api, ctx);
  });

  app.get('/api/openapi.json', { schema: { hide: true } }, async () => app.swagger());
  flowSiteRoutes(app, config.flowsDir ?? null);

  const dist = config.staticDir;
  if (dist && existsSync(path.join(dist, 'index.html'))) {
    // preCompressed: the build writes .br/.gz copies of its text files (vite.config.ts); they go to browsers that accept them.
    await app.register(import('@fastify/static'), { root: dist, wildcard: false, index: false, maxAge: '1h', immutable: false, preCompressed: true });
  }
  const hasPages = !!dist && existsSync(path.join(dist, 'index.html'));
  const pages =
    hasPages && config.pageRenderer && existsSync(config.pageRenderer)
      ? await createPageRenderer(app, {
          template: readFileSync(path.join(dist!, 'index.html'), 'utf8'),
          entry: config.pageRenderer,
          localesDir: path.join(dist!, 'locales'),
          appKey: config.appKey,
          stylesheet: (href) => {
            const file = path.join(dist!, href);
            return href.startsWith('/assets/') && href.endsWith('.css') && !href.includes('..') && existsSync(file) ? readFileSync(file, 'utf8') : null;
          },
          dataVersion: () => settings.currentVersion(),
        })
      : null;
  // The pages' Content-Security-Policy names their inline scripts by hash: the plain page's once, a rendered page's when first sent.
  const plainPagePolicy = hasPages ? pagePolicy(inlineScriptHashes(readFileSync(path.join(dist!, 'index.html'), 'utf8'))) : '';
  const renderedPolicies = new WeakMap<object, string>();
  const policyOf = (page: { html: string }) => {
    let policy = renderedPolicies.get(page);
    if (!policy) renderedPolicies.set(page, (policy = pagePolicy(inlineScriptHashes(page.html))));
    return policy;
  };
  app.setNotFoundHandler(async (req, reply) => {
    if (req.url.startsWith('/api/') || req.method !== 'GET' || !dist || !existsSync(path.join(dist, 'index.html'))) {
      return reply.status(404).send({ error_code: 'not_found', message: 'Not found', errors: {} });
    }
    if (/\.[a-z0-9]+$/i.test(req.url.split('?')[0])) {
      return reply.status(404).send({ error_code: 'not_found', message: 'Not found', errors: {} });
    }
    const rendered = pages ? await pages.render(req) : null;
    if (rendered) {
      reply
        .type('text/html; charset=utf-8')
        .header('Cache-Control', 'no-cache')
        .header('Vary', 'Cookie, Accept-Language, Accept-Encoding')
        .header('Content-Security-Policy', policyOf(rendered));
      const encoding = pickEncoding(req.headers['accept-encoding']);
      return encoding ? reply.header('Content-Encoding', encoding).send(rendered[encoding]) : reply.send(rendered.html);
    }
    return reply.type('text/html').header('Cache-Control', 'no-cache').header('Content-Security-Policy', plainPagePolicy).sendFile('index.html');
  });

  return app;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export type { ZodTypeProvider };
