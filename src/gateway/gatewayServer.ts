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
import { timingSafeEqual } from 'node:crypto';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import { parseRequest } from '../core/chat';
import type { ChatRequest } from '../core/chat/types';
import { recordOfFailure, runRequestFlow, type RequestRecord } from '../core/flow/requestFlow';
import type { Logger } from '../core/ports';
import { describeError } from '../core/errors';
import { chatApi } from './apis/chatApi';
import { messagesApi } from './apis/messagesApi';
import { responsesApi } from './apis/responsesApi';
import type { ApiId, ClientOutput, WireApi } from './apis/wireApi';
import type { GatewayOptimizer } from './gatewayOptimizer';
import { tenantOf } from './gatewayOptimizer';
import { GatewayTarget } from './gatewayTarget';
import type { Admission } from './admission';
import type { GatewayMetrics } from './gatewayMetrics';
import { DeliveredStreamError, forwardedHeaders, relayedHeaders, UpstreamError, UpstreamUnreachable, type FetchLike } from './upstream';

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
   * A secret a client not on this machine must present (`x-herald-token` header, or a path
   * starting `/herald/<token>/`). Required when `host` is not a loopback address.
   */
  readonly token?: string;
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
  /** The upstream `fetch`, for tests. Default the global fetch. */
  readonly fetch?: FetchLike;
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
}

export interface Gateway {
  /** Starts listening; resolves with the port. */
  listen(): Promise<number>;
  /** Stops accepting requests and ends the open ones. */
  close(): Promise<void>;
  /** The most recent requests' records, newest last. */
  recent(): readonly GatewayRecord[];
  /** The base URL clients use (`http://host:port`). */
  url(): string;
}

const ROUTES: Readonly<Record<string, WireApi>> = { '/v1/chat/completions': chatApi, '/v1/responses': responsesApi, '/v1/messages': messagesApi };

export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  return address === '::1' || address === 'localhost' || /^(::ffff:)?127\./.test(address);
}

export function createGateway(options: GatewayOptions): Gateway {
  const host = options.host ?? '127.0.0.1';
  if (!isLoopback(host) && !options.token) {
    throw new Error(`Herald: listening on ${host} makes the gateway reachable from other machines; give it a token (--token or HERALD_GATEWAY_TOKEN) that their clients send as x-herald-token`);
  }
  const fetchLike: FetchLike = options.fetch ?? ((url, init) => fetch(url, init as RequestInit));
  const openaiBase = trimBase(options.openaiBaseUrl ?? DEFAULT_OPENAI_BASE_URL);
  const anthropicBase = trimBase(options.anthropicBaseUrl ?? DEFAULT_ANTHROPIC_BASE_URL);
  const maxBody = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const recent: GatewayRecord[] = [];
  let counter = 0;
  let port = options.port ?? DEFAULT_GATEWAY_PORT;

  const record = (entry: GatewayRecord): void => {
    recent.push(entry);
    if (recent.length > RECENT_RECORDS) recent.shift();
    try {
      options.onRecord?.(entry);
    } catch (error) {
      options.logger.warn('gateway-record-failed', `Herald: a request's record could not be kept: ${describeError(error)}`);
    }
    options.logger.info('gateway-request', `Herald: ${entry.api} ${entry.httpStatus} ${entry.status}: ${entry.tokensBefore} → ${entry.tokensAfter} tokens, ${entry.retrievals} retrievals, ${Math.round(entry.totalMs)} ms`);
  };

  const server = http.createServer((request, response) => {
    handle(request, response).catch((error: unknown) => {
      options.logger.error('gateway-failed', `Herald: the gateway could not answer ${request.method} ${pathOf(request.url)}: ${describeError(error)}`);
      if (!response.headersSent) sendJson(response, 500, chatApi.errorBody(500, 'Herald: the gateway failed on this request; see its log'));
      else response.end();
    });
  });
  server.on('connection', (socket) => socket.setNoDelay(true));

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://gateway');
    let path = url.pathname;
    let presented = headerValue(request.headers['x-herald-token']);
    const prefixed = /^\/herald\/([^/]+)(\/v1\/.*)$/.exec(path);
    if (prefixed) {
      presented = decodeURIComponent(prefixed[1]!);
      path = prefixed[2]!;
    }
    if (options.token && !isLoopback(request.socket.remoteAddress) && !sameSecret(presented, options.token)) {
      sendJson(response, 401, chatApi.errorBody(401, 'Herald: this gateway needs its token (the x-herald-token header, or a base URL starting /herald/<token>/)'));
      request.resume();
      return;
    }
    const api = ROUTES[path];
    if (api && request.method === 'POST') return admitted(api, request, response, url.search);
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
    if (request.method === 'GET' && path === '/herald/decisions') return sendJson(response, 200, { requests: recent });
    if (request.method === 'POST' && path === '/v1/messages/count_tokens') {
      await passthrough(request, response, `${anthropicBase}${path}${url.search}`, undefined);
      return;
    }
    if (request.method === 'GET' && (path === '/v1/models' || path.startsWith('/v1/models/'))) {
      // Both providers list models here; Anthropic's clients say who they are by their headers.
      const anthropic = request.headers['x-api-key'] !== undefined || request.headers['anthropic-version'] !== undefined;
      await passthrough(request, response, anthropic ? `${anthropicBase}${path}${url.search}` : `${openaiBase}${path.slice(3)}${url.search}`, undefined);
      return;
    }
    request.resume();
    sendJson(response, 404, chatApi.errorBody(404, `Herald: the gateway serves POST /v1/chat/completions, /v1/responses, /v1/messages (and count_tokens, GET /v1/models); not ${request.method} ${path}`));
  }

  function upstreamUrl(api: WireApi, search: string): string {
    return `${api.provider === 'anthropic' ? anthropicBase : openaiBase}${api.upstreamPath}${search}`;
  }

  /** An API request, once the admission lets it in (its body counted until the answer ends). */
  async function admitted(api: WireApi, request: http.IncomingMessage, response: http.ServerResponse, search: string): Promise<void> {
    if (!options.admission) return handleApi(api, request, response, search);
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
      await handleApi(api, request, response, search);
    } finally {
      verdict.release();
    }
  }

  async function handleApi(api: WireApi, request: http.IncomingMessage, response: http.ServerResponse, search: string): Promise<void> {
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
    let parsed: ChatRequest;
    try {
      parsed = parseRequest(body, api.format);
    } catch (error) {
      // Fail-open: a request Herald cannot read goes to the provider as it came; the provider decides.
      options.logger.warn('gateway-request-unreadable', `Herald: a ${api.id} request could not be read (${describeError(error)}); it was forwarded untouched`);
      await passthrough(request, response, url, bytes);
      return;
    }
    options.optimizer.remember?.(parsed, { bytes, format: api.format });
    const stream = fields.stream === true;
    const abort = new AbortController();
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    const exchange = api.exchange();
    const model = typeof fields.model === 'string' ? fields.model : undefined;
    const target = new GatewayTarget({ api, exchange, url, headers: forwardedHeaders(request.headers), stream, fetch: fetchLike, tokens: options.optimizer.tokens, original: { request: parsed, json: JSON.stringify(body), bytes }, model });
    const output: ClientOutput = { response, head: () => target.head, rounds: () => target.rounds, model };
    const writer = exchange.writer(output, stream);
    const tenant = tenantOf(request.headers, options.tenantKey);
    const answersItself = api.answersItself(fields);
    const optimize = options.optimizer.optimize;
    const id = `g${started.toString(36)}-${(++counter).toString(36)}`;
    const finished = (flowRecord: RequestRecord | undefined, httpStatus: number): void => {
      if (!flowRecord) return;
      const entry: GatewayRecord = { ...flowRecord, api: api.id, stream, httpStatus };
      record(entry);
      options.metrics?.observe(entry, tenant);
    };
    try {
      const flowRecord = await runRequestFlow({
        id,
        request: parsed,
        target,
        optimize: optimize
          ? async (input, _windowTokens, signal, targetKind) => {
            const result = await optimize(input, tenant, signal, targetKind);
            // A cached answer Herald would write itself cannot stand in where the provider keeps state by id.
            return result.response !== undefined && !answersItself ? { ...result, response: undefined } : result;
          }
          : undefined,
        retrieve: (handle) => options.optimizer.retrieve(handle),
        report: (chunk) => writer.write(chunk),
        signal: abort.signal,
        retrieveRounds: answersItself ? options.retrieveRounds ?? 4 : 0,
        logger: options.logger,
        countTokens: (input) => options.optimizer.tokens.countRequest(input),
        afterResponse: (input, answer, sessionId) => options.optimizer.afterResponse(input, answer, sessionId, tenant),
        ...(options.optimizer.loadTools ? { loadTools: (sessionId: string, names: readonly string[]) => options.optimizer.loadTools!(sessionId, names) } : {}),
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
      if (!writer.started && error instanceof UpstreamError) {
        // The provider's own answer, as it came: status, retry-after and rate-limit headers, body.
        response.writeHead(error.status, { ...error.headers, 'content-length': String(error.body.length) });
        response.end(error.body);
        finished(flowRecord, error.status);
      } else if (!writer.started && error instanceof UpstreamUnreachable) {
        sendJson(response, 502, api.errorBody(502, error.message));
        finished(flowRecord, 502);
      } else if (!writer.started && target.rounds <= 1 && !(error instanceof DeliveredStreamError)) {
        // Herald's own failure before anything reached the client: the original request goes out as it came.
        options.logger.error('gateway-flow-failed', `Herald: the ${api.id} request failed inside Herald (${describeError(error)}); the original request was forwarded`);
        const status = await passthrough(request, response, url, bytes, abort.signal);
        finished(flowRecord && { ...flowRecord, status: 'forwarded-original' }, status);
      } else {
        if (!(error instanceof DeliveredStreamError)) writer.failAfterStart(error instanceof UpstreamError ? error.body.toString('utf8') : describeError(error));
        else response.end();
        finished(flowRecord, target.head?.status ?? 200);
      }
    }
  }

  /** Forwards a request untouched and pipes the answer back as it arrives; resolves with the status the client got. */
  async function passthrough(request: http.IncomingMessage, response: http.ServerResponse, url: string, body: Buffer | undefined, signal?: AbortSignal): Promise<number> {
    const abort = new AbortController();
    signal?.addEventListener('abort', () => abort.abort(), { once: true });
    response.on('close', () => {
      if (!response.writableFinished) abort.abort();
    });
    const bytes = body ?? (request.method === 'GET' || request.method === 'HEAD' ? undefined : await readBody(request, maxBody));
    if (body === undefined && bytes === undefined && request.method !== 'GET' && request.method !== 'HEAD') {
      sendJson(response, 413, chatApi.errorBody(413, `Herald: the request body is larger than the gateway's limit of ${maxBody} bytes`));
      return 413;
    }
    let upstream: Response;
    try {
      upstream = await fetchLike(url, { method: request.method ?? 'GET', headers: forwardedHeaders(request.headers), ...(bytes !== undefined ? { body: bytes } : {}), signal: abort.signal });
    } catch (error) {
      if (abort.signal.aborted) return 499;
      sendJson(response, 502, chatApi.errorBody(502, new UpstreamUnreachable(url, error).message));
      return 502;
    }
    response.writeHead(upstream.status, relayedHeaders(upstream.headers));
    if (upstream.body) {
      try {
        for await (const chunk of upstream.body as unknown as AsyncIterable<Uint8Array>) response.write(chunk);
      } catch {
        // The client or the provider went away mid-answer; nothing more can be sent.
      }
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
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
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

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

function sameSecret(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function trimBase(url: string): string {
  return url.replace(/\/+$/, '');
}

/** A request path without its query (which may carry keys some providers accept there). */
function pathOf(url: string | undefined): string {
  return (url ?? '/').split('?')[0]!;
}
