/**
 * The local gateway's transport: Chat Completions, Responses and Anthropic Messages on one
 * port, each request run through the core's request flow (optimize, forward, answer Herald's
 * own tools, stream back, record) and answered in its own API's shape. Everything else an
 * agent calls there (count_tokens, models) passes through untouched.
 *
 * Credentials stay in the request: the client's headers are forwarded to its upstream and
 * appear in no record, log line or file. Herald's own failure forwards the original request
 * (fail-open); the provider's errors reach the client as they came.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseRequest } from '../core/chat';
import type { ChatRequest } from '../core/chat/types';
import { recordOfFailure, runRequestFlow, type RequestRecord } from '../core/flow/requestFlow';
import { describeTurnTokens } from '../core/flow/turnFigures';
import { FirstMarkerRates } from '../core/flow/firstMarkerRate';
import type { Logger } from '../core/ports';
import { describeError } from '../core/errors';
import { chatApi } from './apis/chatApi';
import { messagesApi } from './apis/messagesApi';
import { responsesApi } from './apis/responsesApi';
import type { ApiId, ClientOutput, ClientWriter, WireApi } from './apis/wireApi';
import { InFlight } from './drain';
import type { GatewayOptimizer, TenantScope } from './gatewayOptimizer';
import { GatewayTarget } from './gatewayTarget';
import type { Admission } from './admission';
import type { GatewayMetrics } from './gatewayMetrics';
import { redactingLogger, redactRecord } from './redact';
import { isJsonContentType, isLoopback, RequestGuard, routeOf, type Route } from './requestGuard';
import { tenantOfRequest, tenantOfUser, type Tenant } from './tenants';
import { DeliveredStreamError, forwardedHeaders, requestOverFetch, timeoutPhaseOf, UpstreamError, UpstreamTimeout, UpstreamUnreachable, type FetchLike, type RequestLike, type UpstreamResponse } from './upstream';
import type { User, UserDirectory } from './users';

export { isLoopback } from './requestGuard';

export const DEFAULT_OPENAI_BASE_URL = 'https://api.openai.com/v1';
export const DEFAULT_ANTHROPIC_BASE_URL = 'https://api.anthropic.com';
export const DEFAULT_GATEWAY_PORT = 8787;
/** Request bodies above this get a 413 (Anthropic's own limit for Messages is 32 MB). */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;
const RECENT_RECORDS = 200;

/** Options of the gateway; every field but `optimizer` has a default. */
export interface GatewayOptions {
  /** Address to listen on. Default 127.0.0.1; anything else needs `token`. */
  readonly host?: string;
  /** Port to listen on; 0 picks a free one. Default 8787. */
  readonly port?: number;
  /** Where OpenAI requests go, `/v1` included. Default https://api.openai.com/v1. */
  readonly openaiBaseUrl?: string;
  /** Where Anthropic requests go, without `/v1`. Default https://api.anthropic.com. */
  readonly anthropicBaseUrl?: string;
  /**
   * A secret every client presents once it is set, loopback included (`x-herald-token` header,
   * or a path starting `/herald/<token>/`). Required when `host` is not a loopback address
   * (or `users`).
   */
  readonly token?: string;
  /** The team's users: each presents their own token and is their requests' tenant (instead of `token`). */
  readonly users?: UserDirectory;
  /** More names the `Host` header may carry besides the gateway's own address. */
  readonly allowedHosts?: readonly string[];
  /** Web origins a browser may call the gateway from; a request from any other origin is refused. */
  readonly allowedOrigins?: readonly string[];
  /** Largest request body in bytes; larger ones get a 413. Default 32 MiB. */
  readonly maxBodyBytes?: number;
  /** Most rounds of Herald's own tool answers in one turn; 0 offers none. Default 4. */
  readonly retrieveRounds?: number;
  readonly optimizer: GatewayOptimizer;
  /** The key tenants are derived with (the stash's key, so tenants survive a restart). */
  readonly tenantKey: Uint8Array;
  readonly logger: Logger;
  /** Each finished request's record (metadata only), for a decisions file or the Decisions view. */
  readonly onRecord?: (record: GatewayRecord) => void;
  /** The upstream `fetch` (`herald serve` gives one with its timeouts, tests a fake). Default the global fetch. */
  readonly fetch?: FetchLike;
  /** The upstream call without fetch's web streams (`herald serve`'s, over undici's `request`); when given, `fetch` is not used. */
  readonly request?: RequestLike;
  /** The body-memory budget and the queue bound; past them a request gets 503 or 429 with retry-after. */
  readonly admission?: Admission;
  /** Counted per request and served at GET /metrics. */
  readonly metrics?: GatewayMetrics;
  /** What GET /herald/health reports besides the port (the store, the queue); `ok: false` answers 503. */
  readonly health?: () => Promise<GatewayHealth>;
}

/** The gateway's health for a balancer: `ok` false when it should get no traffic. */
export interface GatewayHealth {
  readonly ok: boolean;
  readonly [detail: string]: unknown;
}

/** A request's record as the gateway keeps it: the flow's record and how the gateway answered. */
export interface GatewayRecord extends RequestRecord {
  readonly api: ApiId;
  readonly stream: boolean;
  /** The status the client got. */
  readonly httpStatus: number;
  /** The user who asked, when the gateway knows its users. */
  readonly user?: string;
}

export interface Gateway {
  /** Starts listening; resolves with the port. */
  listen(): Promise<number>;
  /**
   * Stops accepting requests; lets the ones in flight finish for up to `graceMs` (default 0),
   * then ends what is left.
   */
  close(graceMs?: number): Promise<void>;
  /** The most recent requests' records, newest last. */
  recent(): readonly GatewayRecord[];
  /** The base URL clients use (`http://host:port`). */
  url(): string;
}

/** Longest a closing gateway waits for requests it cut to finish their records, in ms. */
const HANDLER_SETTLE_MS = 5000;

const ROUTES: Readonly<Record<string, WireApi>> = { '/v1/chat/completions': chatApi, '/v1/responses': responsesApi, '/v1/messages': messagesApi };

export function createGateway(options: GatewayOptions): Gateway {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.token && !options.users) {
    throw new Error(`Herald: listening on ${host} makes the gateway reachable from other machines; give it a token (--token or HERALD_GATEWAY_TOKEN) that their clients send as x-herald-token, or a team of users (--users FILE)`);
  }
  if (options.token !== undefined && options.users) throw new Error('Herald: give the gateway either one token (--token) or a team of users (--users), not both');
  const upstreamRequest: RequestLike = options.request ?? requestOverFetch(options.fetch ?? ((url, init) => fetch(url, init as RequestInit)));
  const guard = new RequestGuard({ bind: host, ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}), ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}), ...(options.token !== undefined ? { token: options.token } : {}), ...(options.users ? { users: options.users } : {}) });
  // Every log line and record is redacted: the token, keys in URLs, bearer values.
  const secrets: readonly string[] = options.token ? [options.token] : [];
  const logger = redactingLogger(options.logger, () => secrets);
  const inFlight = new InFlight();
  /** Requests being handled, so a close returns once each has kept its record (a cut one too). */
  const handlers = new Set<Promise<void>>();
  let draining = false;
  const openaiBase = trimBase(options.openaiBaseUrl ?? DEFAULT_OPENAI_BASE_URL);
  const anthropicBase = trimBase(options.anthropicBaseUrl ?? DEFAULT_ANTHROPIC_BASE_URL);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const recent: GatewayRecord[] = [];
  let counter = 0;
  // How often each tenant's model asks for a session's first marker (the pipeline prices that round with it).
  const markerRates = new FirstMarkerRates();
  let port = options.port ?? DEFAULT_GATEWAY_PORT;

  const record = (raw: GatewayRecord): void => {
    const entry = redactRecord(raw, secrets);
    recent.push(entry);
    if (recent.length > RECENT_RECORDS) recent.shift();
    try {
      options.onRecord?.(entry);
    } catch (error) {
      logger.warn('gateway-record-failed', `Herald: a request's record could not be kept: ${describeError(error)}`);
    }
    logger.info('gateway-request', `Herald: ${entry.api} ${entry.httpStatus} ${entry.status}: ${describeTurnTokens(entry)}, ${entry.retrievals} retrievals, ${Math.round(entry.totalMs)} ms`);
  };

  const server = http.createServer((request, response) => {
    inFlight.track(response);
    const handled = handle(request, response).catch((error: unknown) => {
      logger.error('gateway-failed', `Herald: the gateway could not answer ${request.method} ${pathOf(request.url)}: ${describeError(error)}`);
      if (!response.headersSent) sendJson(response, 500, chatApi.errorBody(500, 'Herald: the gateway failed on this request; see its log'));
      else response.end();
    });
    handlers.add(handled);
    void handled.finally(() => handlers.delete(handled));
  });
  server.on('connection', (socket) => socket.setNoDelay(true));

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const route = routeOf(request);
    if (!route) {
      request.resume();
      return sendJson(response, 400, chatApi.errorBody(400, 'Herald: the request path is not valid percent-encoding'));
    }
    const api = request.method === 'POST' ? ROUTES[route.path] : undefined;
    // Refusals in the shape of the API asked (count_tokens is Anthropic's).
    const shape = api ?? (route.path === '/v1/messages/count_tokens' ? messagesApi : chatApi);
    const refuse = (status: number, message: string): void => {
      request.resume();
      sendJson(response, status, shape.errorBody(status, message));
    };
    if (draining) {
      response.setHeader('connection', 'close');
      return refuse(503, 'Herald: the gateway is shutting down; send the request again');
    }
    const place = guard.checkPlace(request);
    if (!place.ok) return refuse(place.status, place.message);
    for (const [name, value] of Object.entries(guard.corsHeaders(request))) response.setHeader(name, value);
    if (request.method === 'OPTIONS' && request.headers.origin !== undefined) {
      request.resume();
      response.writeHead(204, guard.preflightHeaders(request));
      response.end();
      return;
    }
    const identity = guard.checkIdentity(route);
    if (!identity.ok) return refuse(identity.status, identity.message);
    const user = identity.user;
    const tenant = user ? tenantOfUser(user.name, options.tenantKey) : tenantOfRequest(request.headers, route.searchParams, options.tenantKey);
    const path = route.path;
    if (api) {
      if (!isJsonContentType(request.headers['content-type'])) return refuse(415, notJson(request));
      return admitted(api, request, response, route, tenant, user);
    }
    // Claude Code probes its base URL at start-up; the provider answers it with an empty 200.
    if (request.method === 'HEAD' && path === '/') {
      response.writeHead(200, { 'content-length': '0' });
      response.end();
      return;
    }
    if (request.method === 'GET' && path === '/herald/health') {
      const health = options.health ? await options.health() : { ok: true };
      return sendJson(response, health.ok ? 200 : 503, { ...health, port });
    }
    if (request.method === 'GET' && path === '/metrics' && options.metrics) {
      const text = await options.metrics.render();
      response.writeHead(200, { 'content-type': options.metrics.contentType, 'content-length': String(Buffer.byteLength(text)) });
      response.end(text);
      return;
    }
    if (request.method === 'GET' && path === '/herald/decisions') return sendJson(response, 200, { requests: visibleTo(user) });
    if (request.method === 'POST' && path === '/v1/messages/count_tokens') {
      if (!isJsonContentType(request.headers['content-type'])) return refuse(415, notJson(request));
      await passthrough(request, response, `${anthropicBase}${path}${route.search}`, undefined, messagesApi);
      return;
    }
    if (request.method === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/'))) {
      // Both providers list models here; Anthropic's clients say who they are by their headers.
      const anthropic = request.headers['x-api-key'] !== undefined || request.headers['anthropic-version'] !== undefined;
      await passthrough(request, response, anthropic ? `${anthropicBase}${path}${route.search}` : `${openaiBase}${path.slice(3)}${route.search}`, undefined, anthropic ? messagesApi : chatApi);
      return;
    }
    request.resume();
    sendJson(response, 404, chatApi.errorBody(404, `Herald: the gateway serves POST /v1/chat/completions, /v1/responses, /v1/messages (and count_tokens, GET /v1/models); not ${request.method} ${path}`));
  }

  /** The records a user may see: their own; every one for an admin, or when the gateway has no users. */
  function visibleTo(user: User | undefined): readonly GatewayRecord[] {
    if (!options.users || user?.admin) return recent;
    return recent.filter((entry) => entry.user === user?.name);
  }

  function upstreamUrl(api: WireApi, search: string): string {
    return `${api.provider === 'anthropic' ? anthropicBase : openaiBase}${api.upstreamPath}${search}`;
  }

  /** An API request, once the admission lets it in (its body counted until the answer ends). */
  async function admitted(api: WireApi, request: http.IncomingMessage, response: http.ServerResponse, route: Route, tenant: Tenant, user: User | undefined): Promise<void> {
    if (!options.admission) return handleApi(api, request, response, route, tenant, user);
    const declared = Number(request.headers['content-length']);
    const verdict = options.admission.admit(Number.isFinite(declared) && declared >= 0 ? Math.min(declared, maxBody) : maxBody);
    if (!verdict.admitted) {
      options.metrics?.refusedRequest(verdict.reason);
      options.logger.warn('gateway-request-refused', verdict.message);
      response.setHeader('retry-after', String(verdict.retryAfterSeconds));
      response.setHeader('connection', 'close');
      sendJson(response, verdict.status, api.errorBody(verdict.status, verdict.message));
      request.resume();
      return;
    }
    try {
      await handleApi(api, request, response, route, tenant, user);
    } finally {
      verdict.release();
    }
  }

  async function handleApi(api: WireApi, request: http.IncomingMessage, response: http.ServerResponse, route: Route, tenant: Tenant, user: User | undefined): Promise<void> {
    const search = route.search;
    const started = Date.now();
    const bytes = await readBody(request, maxBody);
    if (bytes === undefined) {
      response.setHeader('connection', 'close');
      sendJson(response, 413, api.errorBody(413, `Herald: the request body is larger than the gateway's limit of ${maxBody} bytes (herald serve --max-body-mb)`));
      return;
    }
    let body: unknown;
    try {
      body = JSON.parse(bytes.toString('utf8'));
    } catch (error) {
      sendJson(response, 400, api.errorBody(400, `Herald: the request body is not valid JSON (${describeError(error)})`));
      return;
    }
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      sendJson(response, 400, api.errorBody(400, 'Herald: the request body must be a JSON object'));
      return;
    }
    const fields = body as Record<string, unknown>;
    const url = upstreamUrl(api, search);
    const stream = fields.stream === true;
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    let prepared: { parsed: ChatRequest; target: GatewayTarget; writer: ClientWriter; answersItself: boolean; scope: TenantScope };
    try {
      const scope = options.optimizer.forTenant(tenant);
      const parsed = parseRequest(body, api.format);
      // A worker pool parses the bytes the client sent rather than the gateway's serialization.
      options.optimizer.remember?.(parsed, { bytes, format: api.format });
      const exchange = api.exchange();
      const model = typeof fields.model === 'string' ? fields.model : undefined;
      const target = new GatewayTarget({ api, exchange, url, headers: forwardedHeaders(request.headers), stream, request: upstreamRequest, tokens: options.optimizer.tokens, original: { request: parsed, json: jsonOrUndefined(body), bytes }, model });
      const output: ClientOutput = { response, head: () => target.head, rounds: () => target.rounds, model };
      prepared = { parsed, target, writer: exchange.writer(output, stream), answersItself: api.answersItself(fields), scope };
    } catch (error) {
      // Fail-open: a request Herald cannot read (or nests too deep to write) goes to the provider as it came; the provider decides.
      logger.warn('gateway-request-unreadable', `Herald: a ${api.id} request could not be read (${describeError(error)}); it was forwarded untouched`);
      await passthrough(request, response, url, bytes, api, abort.signal);
      return;
    }
    const { parsed, target, writer, answersItself, scope } = prepared;
    const optimize = scope.optimize;
    const id = `g${started.toString(36)}-${(++counter).toString(36)}`;
    const finished = (flowRecord: RequestRecord | undefined, httpStatus: number): void => {
      if (!flowRecord) return;
      const entry: GatewayRecord = { ...flowRecord, api: api.id, stream, httpStatus, ...(user ? { user: user.name } : {}) };
      record(entry);
      options.metrics?.observe(entry, tenant);
    };
    try {
      const flowRecord = await runRequestFlow({
        id,
        request: parsed,
        target,
        optimize: optimize
          ? async (input, _windowTokens, signal, targetKind, firstMarkerRisk) => {
            const result = await optimize(input, signal, targetKind, firstMarkerRisk);
            // A cached answer Herald would write itself cannot stand in where the provider keeps state by id.
            return result.response !== undefined && !answersItself ? { ...result, response: undefined } : result;
          }
          : undefined,
        retrieve: (handle) => scope.retrieve(handle),
        firstMarkerRate: markerRates.of(tenant.id, tenant.anonymous),
        report: (chunk) => writer.write(chunk),
        signal: abort.signal,
        retrieveRounds: answersItself ? options.retrieveRounds ?? 4 : 0,
        logger,
        countTokens: (input) => options.optimizer.tokens.countRequest(input),
        afterResponse: (input, answer, sessionId) => scope.afterResponse(input, answer, sessionId),
        ...(scope.loadTools ? { loadTools: (sessionId: string, names: readonly string[]) => scope.loadTools!(sessionId, names) } : {}),
      });
      writer.finish();
      finished(flowRecord, target.head?.status ?? 200);
    } catch (error) {
      const flowRecord = recordOfFailure(error);
      if (abort.signal.aborted) {
        // The client went away: the upstream request was aborted with it.
        finished(flowRecord && { ...flowRecord, error: 'the client disconnected' }, 499);
        response.destroy();
        return;
      }
      if (target.rounds === 0 && !writer.started) {
        // Herald's own failure before the provider was called: the original request goes out as it came, once.
        logger.error('gateway-flow-failed', `Herald: the ${api.id} request failed inside Herald (${describeError(error)}); the original request was forwarded`);
        const status = await passthrough(request, response, url, bytes, api, abort.signal);
        finished(flowRecord && { ...flowRecord, status: 'forwarded-original' }, status);
        return;
      }
      // The provider was called: its failure is the answer, never a second call.
      if (!writer.started && error instanceof UpstreamError) {
        // The provider's own answer, as it came: status, retry-after and rate-limit headers, body.
        response.writeHead(error.status, { ...error.headers, 'content-length': String(error.body.length) });
        response.end(error.body);
        finished(flowRecord, error.status);
      } else if (!writer.started && !(error instanceof DeliveredStreamError)) {
        const status = error instanceof UpstreamTimeout ? 504 : 502;
        sendJson(response, status, api.errorBody(status, failureMessage(error)));
        finished(flowRecord, status);
      } else {
        if (!(error instanceof DeliveredStreamError)) writer.failAfterStart(error instanceof UpstreamError ? error.body.toString('utf8') : failureMessage(error));
        else response.end();
        finished(flowRecord, target.head?.status ?? 200);
      }
    }
  }

  /**
   * Forwards a request untouched and pipes the answer back as it arrives; resolves with the
   * status the client got. An answer that breaks off is cut for the client too (never ended
   * as if it were whole).
   */
  async function passthrough(request: http.IncomingMessage, response: http.ServerResponse, url: string, body: Buffer | undefined, shape: WireApi, signal?: AbortSignal): Promise<number> {
    const abort = new AbortController();
    signal?.addEventListener('abort', () => abort.abort(), { once: true });
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    const bytes = body ?? (request.method === 'GET' || request.method === 'HEAD' ? undefined : await readBody(request, maxBody));
    if (body === undefined && bytes === undefined && request.method !== 'GET' && request.method !== 'HEAD') {
      sendJson(response, 413, shape.errorBody(413, `Herald: the request body is larger than the gateway's limit of ${maxBody} bytes`));
      return 413;
    }
    let upstream: UpstreamResponse;
    try {
      upstream = await upstreamRequest(url, { method: request.method ?? 'GET', headers: forwardedHeaders(request.headers), ...(bytes !== undefined ? { body: bytes } : {}), signal: abort.signal });
    } catch (error) {
      if (abort.signal.aborted) return 499;
      const phase = timeoutPhaseOf(error);
      const status = phase ? 504 : 502;
      sendJson(response, status, shape.errorBody(status, (phase ? new UpstreamTimeout(url, phase) : new UpstreamUnreachable(url, error)).message));
      return status;
    }
    response.writeHead(upstream.status, upstream.headers);
    try {
      for await (const chunk of upstream.body) response.write(chunk);
    } catch {
      // The client or the provider went away mid-answer: the client's answer is cut as the provider's was.
      response.destroy();
      return upstream.status;
    }
    response.end();
    return upstream.status;
  }

  return {
    listen: () =>
      new Promise((resolve, reject) => {
        server.once('error', reject);
        server.listen(options.port ?? DEFAULT_GATEWAY_PORT, host, () => {
          server.off('error', reject);
          port = (server.address() as AddressInfo).port;
          resolve(port);
        });
      }),
    close: async (graceMs = 0) => {
      draining = true;
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeIdleConnections();
      if (graceMs > 0) await inFlight.idle(graceMs);
      server.closeAllConnections();
      await closed;
      // A request cut above ends its flow (and keeps its record) in a moment; wait for that, bounded.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([Promise.allSettled([...handlers]), new Promise<void>((resolve) => (timer = setTimeout(resolve, HANDLER_SETTLE_MS)))]);
      clearTimeout(timer);
    },
    recent: () => recent,
    url: () => `http://${host.includes(':') ? `[${host}]` : host}:${port}`,
  };
}

/** The body, or undefined when it is larger than `limit` (the rest is read and dropped, so the answer can still be sent). */
function readBody(request: http.IncomingMessage, limit: number): Promise<Buffer | undefined> {
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers['content-length']);
    const chunks: Buffer[] = [];
    let size = 0;
    let over = Number.isFinite(declared) && declared > limit;
    if (over) {
      resolve(undefined);
      request.resume();
      return;
    }
    request.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
        resolve(undefined);
        return;
      }
      chunks.push(chunk);
    });
    request.on('end', () => {
      if (!over) resolve(Buffer.concat(chunks));
    });
    request.on('error', reject);
  });
}

function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)) });
  response.end(text);
}

function notJson(request: http.IncomingMessage): string {
  return `Herald: the gateway takes JSON bodies only (content-type: application/json), not ${request.headers['content-type'] ?? 'a body without a content type'}`;
}

/** The body as JSON text, or undefined when it cannot be written again (nested deeper than the stack allows). */
function jsonOrUndefined(body: unknown): string | undefined {
  try {
    return JSON.stringify(body);
  } catch {
    return undefined;
  }
}

/** What the client is told when the provider's answer failed after the provider was called. */
function failureMessage(error: unknown): string {
  const message = describeError(error);
  if (error instanceof UpstreamTimeout || error instanceof UpstreamUnreachable || /^Herald: the upstream/.test(message)) return message;
  return `Herald: the request failed after the upstream was called (${message}); it was not sent again`;
}

function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}

/** A request path without its query (which may carry keys some providers accept there). */
function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0]!;
}
