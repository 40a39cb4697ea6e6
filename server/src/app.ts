// Builds the Fastify app (never listens): API routes, OpenAPI at /api/docs, security headers,
// and the built web app with every non-/api path falling back to index.html.
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import Fastify, {
  type FastifyBaseLogger,
  type FastifyError,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import {
  hasZodFastifySchemaValidationErrors,
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import helmet from 'helmet';
import { existsSync } from 'node:fs';
import { STATUS_CODES } from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ZodError } from 'zod';
import type { Container } from './container';
import { isDatabaseReachable, isDatabaseUnreachable } from './db/database';
import type { ForegroundGauge } from './lib/foreground';
import { HttpError } from './lib/http-errors';
import { accountRoutes } from './modules/account/account.routes';
import { activityRoutes } from './modules/activity/activity.routes';
import { alertRoutes } from './modules/alerts/alerts.routes';
import { authRoutes } from './modules/auth/auth.routes';
import { budgetRoutes } from './modules/budgets/budgets.routes';
import { automationRoutes } from './modules/automation/automation.routes';
import { captchaRoutes } from './modules/captcha/captcha.routes';
import { costRoutes } from './modules/costs/costs.routes';
import { metricRoutes } from './modules/metrics/metrics.routes';
import { passwordRoutes } from './modules/password/password.routes';
import { pipelineRoutes } from './modules/pipelines/pipelines.routes';
import { securityRoutes } from './modules/security/security.routes';
import { recommendationRoutes } from './modules/recommendations/recommendations.routes';
import { resourceRoutes } from './modules/resources/resources.routes';
import { signupRoutes } from './modules/signup/signup.routes';
import { teamRoutes } from './modules/team/team.routes';
import { teamSettingsRoutes } from './modules/team/team-settings.routes';
import { tenantRoutes } from './modules/tenants/tenants.routes';
import { registerAuthentication } from './plugins/authenticate';
import { registerNoStore } from './plugins/no-store';
import { refuseHeadOnStateChanges } from './plugins/refuse-head-on-state-changes';
import { refuseNulText } from './plugins/refuse-nul-text';
import { refuseViewerChanges } from './plugins/refuse-viewer-changes';
import { scopeRoutes } from './modules/scope/scope.routes';

export const databaseUnavailableText =
  'Cloudtrim cannot reach its database right now. Try again in a moment.';

export interface BuildAppOptions {
  // The process's logger (createLogger), so request logs share its redactions; none by default.
  log?: FastifyBaseLogger;
  webRoot?: string;
  // Counts the requests in flight for a job thread in the same process (ROLE=all).
  foreground?: ForegroundGauge;
}

const defaultWebRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

// From the first hook to the response's close, which Node emits once whether the response finished
// or its connection was lost. Counting only until the answer was made (onSend) let the job thread
// back onto the cores while the answer was still being written and read: p99 33.8-46.4 ms in the
// cycle instead of 25-29 (bench/README.md, round 10). A slow client's download keeps the count up,
// which slows the jobs (each wait is bounded), not the API.
function countRequestsInFlight(app: FastifyInstance, foreground: ForegroundGauge): void {
  app.addHook('onRequest', (request, reply, done) => {
    foreground.enter();
    reply.raw.once('close', () => foreground.leave());
    done();
  });
}

export async function buildApp(
  container: Container,
  options: BuildAppOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: options.log,
    trustProxy: container.config.trustProxy,
    genReqId: () => crypto.randomUUID(),
    disableRequestLogging: false,
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(refuseNulText(validatorCompiler));
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  acceptEmptyJsonBody(app);
  registerNoStore(app);
  if (options.foreground) countRequestsInFlight(app, options.foreground);

  // Security headers, worked out once: @fastify/helmet rebuilds helmet's middleware, parsing the
  // content security policy again, on every request.
  const applySecurityHeaders = helmet({
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...container.captcha.getContentSources().scriptSrc],
        frameSrc: ["'self'", ...container.captcha.getContentSources().frameSrc],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:'],
        workerSrc: ["'self'", 'blob:'],
        connectSrc: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
  });
  app.addHook('onRequest', (request, reply, done) =>
    applySecurityHeaders(request.raw, reply.raw, (error?: unknown) => done(error as Error | undefined)),
  );
  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'Cloudtrim API', version: '1.0.0' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  refuseHeadOnStateChanges(app);
  registerAuthentication(app, container.auth);
  refuseViewerChanges(app, (userId) => container.team.findRole(userId));

  app.get('/healthz', { config: { isPublic: true }, schema: { hide: true } }, async (_request, reply) => {
    const isHealthy = await isDatabaseReachable(container.database);
    return reply.code(isHealthy ? 200 : 503).send({ status: isHealthy ? 'ok' : 'database unreachable' });
  });

  // Every API route, in one place: each module's routes get the one service they call.
  await app.register(authRoutes(container.auth));
  await app.register(accountRoutes(container.account));
  await app.register(captchaRoutes(container.captcha));
  await app.register(signupRoutes(container.signup));
  await app.register(passwordRoutes(container.password));
  await app.register(teamRoutes(container.team));
  await app.register(teamSettingsRoutes(container.team));
  await app.register(tenantRoutes(container.tenants));
  await app.register(resourceRoutes(container.resources));
  await app.register(metricRoutes(container.metrics));
  await app.register(activityRoutes(container.activity));
  await app.register(recommendationRoutes(container.recommendations));
  await app.register(automationRoutes(container.automation.service));
  await app.register(costRoutes(container.costs));
  await app.register(budgetRoutes(container.budgets));
  await app.register(alertRoutes(container.alerts));
  await app.register(pipelineRoutes(container.pipelines));
  await app.register(securityRoutes(container.security));
  await app.register(scopeRoutes(container.scope));

  await registerWebApp(app, options.webRoot ?? defaultWebRoot);
  return app;
}

// SPEC's client sends a JSON content type on every signed-in call, body or not: an empty body reads
// as no body (a route that needs one refuses it in its schema), a body that is there must be JSON.
function acceptEmptyJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text === '') return done(null, undefined);
    return parseJson(request, text, done);
  });
}

// The build's files go out as the brotli or gzip copy the build wrote beside them, when the browser
// accepts it. Files under assets/ carry a content hash in their names, so browsers keep them for a
// year without asking; everything else (index.html above all) is revalidated on every load, so a
// new release is picked up at once.
async function registerWebApp(app: FastifyInstance, webRoot: string): Promise<void> {
  const hasWebApp = existsSync(path.join(webRoot, 'index.html'));
  const hashedAssets = `${path.join(webRoot, 'assets')}${path.sep}`;
  if (hasWebApp) {
    await app.register(fastifyStatic, {
      root: webRoot,
      wildcard: false,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (response, filePath) => {
        response.setHeader('vary', 'accept-encoding');
        response.setHeader(
          'cache-control',
          filePath.startsWith(hashedAssets) ? 'public, max-age=31536000, immutable' : 'no-cache',
        );
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    // A missing asset is a 404, not the app's page: a tab left open across a release asks for
    // chunks that no longer exist, and must not be handed HTML for JavaScript.
    const isFile = request.url.startsWith('/api/') || request.url.startsWith('/assets/');
    if (isFile || request.method !== 'GET' || !hasWebApp) {
      return reply.code(404).send({ statusCode: 404, error: 'Not Found', message: 'Not found.' });
    }
    return reply.sendFile('index.html');
  });
}

function handleError(error: FastifyError, request: FastifyRequest, reply: FastifyReply) {
  // Schema validation (body, query, params) and a service's own zod parse answer alike: 400 naming the field.
  const invalid = hasZodFastifySchemaValidationErrors(error)
    ? {
        field: error.validation[0]?.instancePath.replace(/^\//, '').replaceAll('/', '.'),
        message: error.validation[0]?.message,
      }
    : error instanceof ZodError
      ? { field: error.issues[0]?.path.join('.'), message: error.issues[0]?.message }
      : undefined;
  if (invalid) {
    const field = invalid.field || undefined;
    const message = invalid.message ?? 'is invalid';
    return reply.code(400).send({
      statusCode: 400,
      error: 'Bad Request',
      message: field ? `${field}: ${message}` : message,
      field,
    });
  }
  // Our own HttpErrors (a 503 when Azure is unreachable too) and Fastify's client errors (a
  // malformed body, a wrong content type) say what went wrong; anything else is unexpected. Another
  // library's error that carries a client status keeps it but not its text, which was not written
  // for users.
  const statusCode = error.statusCode ?? 500;
  if (error instanceof HttpError || statusCode < 500) {
    const isOurs = error instanceof HttpError || error.code?.startsWith('FST_') === true;
    return reply.code(statusCode).send({
      statusCode,
      error: STATUS_CODES[statusCode] ?? 'Error',
      message: isOurs ? error.message : (STATUS_CODES[statusCode] ?? 'Error'),
      ...(error instanceof HttpError && error.field ? { field: error.field } : {}),
    });
  }
  if (isDatabaseUnreachable(error) || isDatabaseUnreachable((error as { cause?: unknown }).cause)) {
    request.log.warn({ err: error }, 'database unreachable');
    return reply.code(503).header('retry-after', '5').send({
      statusCode: 503,
      error: 'Service Unavailable',
      message: databaseUnavailableText,
    });
  }
  request.log.error({ err: error }, 'unexpected failure');
  return reply.code(500).send({
    statusCode: 500,
    error: 'Internal Server Error',
    message: 'An unexpected error occurred. Quote the request id when you contact support.',
    requestId: request.id,
  });
}
