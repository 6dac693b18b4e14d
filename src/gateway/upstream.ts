/**
 * The call to the provider: the client's own headers (credentials included) forwarded
 * unchanged except the hop-by-hop ones, the provider's status, headers and body handed back.
 * Headers live only in the call; nothing here logs, stores or describes them.
 */
import type { IncomingHttpHeaders } from 'node:http';
import { redactSecrets } from './redact';

/** Request headers that belong to one connection, not to the request (RFC 9110 §7.6.1), and ones Herald sets itself. */
const DROPPED_REQUEST_HEADERS = new Set(['host', 'connection', 'keep-alive', 'proxy-authorization', 'proxy-authenticate', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'content-length', 'accept-encoding', 'expect', 'x-herald-token']);
/** Response headers the gateway cannot pass on as they are: it re-frames the body. */
const DROPPED_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'content-encoding', 'trailer', 'upgrade']);

/** The client's headers as they go upstream. */
export function forwardedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED_REQUEST_HEADERS.has(name)) continue;
    out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  // Bodies are read as they stream; a compressed stream would have to be inflated first.
  out['accept-encoding'] = 'identity';
  return out;
}

/** The provider's headers as they go back to the client (retry-after, rate limits, request ids…). */
export function relayedHeaders(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  headers.forEach((value, name) => {
    if (!DROPPED_RESPONSE_HEADERS.has(name)) out[name] = value;
  });
  return out;
}

/**
 * The same from Node's header record (lower-case names): a repeated header joined as fetch's
 * `Headers` joins it, `set-cookie` its last value as iterating `Headers` leaves it.
 */
export function relayedHeaderRecord(headers: Readonly<Record<string, string | string[] | undefined>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || DROPPED_RESPONSE_HEADERS.has(name)) continue;
    out[name] = typeof value === 'string' ? value : name === 'set-cookie' ? value[value.length - 1] ?? '' : value.join(', ');
  }
  return out;
}

/** The provider answered with an error: passed to the client as it came. */
export class UpstreamError extends Error {
  constructor(readonly status: number, readonly headers: Record<string, string>, readonly body: Buffer) {
    super(`Herald: the upstream answered ${status}`);
    this.name = 'UpstreamError';
  }
}

/** The provider could not be reached at all (refused, reset, a name that does not resolve). */
export class UpstreamUnreachable extends Error {
  constructor(readonly url: string, cause: unknown) {
    super(`Herald: the upstream ${redactSecrets(url)} could not be reached (${causeOf(cause)})`);
    this.name = 'UpstreamUnreachable';
  }
}

export type TimeoutPhase = 'connect' | 'first byte' | 'idle';

/** The provider took longer than the gateway's `--upstream-timeout` allows (a 504 for the client). */
export class UpstreamTimeout extends Error {
  constructor(readonly url: string, readonly phase: TimeoutPhase) {
    const what = phase === 'connect' ? 'did not accept the connection' : phase === 'first byte' ? 'did not start its answer' : 'went silent in the middle of its answer';
    super(`Herald: the upstream ${redactSecrets(url)} ${what} within the gateway's ${phase} timeout (herald serve --upstream-timeout)`);
    this.name = 'UpstreamTimeout';
  }
}

/** The provider's answer started and then broke off, or cannot be read (truncated JSON, an HTML page, a reset). */
export class UpstreamBroken extends Error {
  constructor(readonly url: string, cause: unknown) {
    super(`Herald: the upstream's answer from ${redactSecrets(url)} broke off or could not be read (${causeOf(cause)})`);
    this.name = 'UpstreamBroken';
  }
}

/** How long the gateway waits for the provider: to connect, for the answer's first byte, and between two pieces of it. */
export interface UpstreamTimeouts {
  readonly connectMs: number;
  readonly firstByteMs: number;
  readonly idleMs: number;
}

/**
 * 10 s to connect; 300 s for the first byte and between two pieces (a non-streamed answer of a
 * reasoning model may take minutes to start, a stream may pause while the model thinks; the
 * providers' own SDKs wait 600 s in all). These are also the global fetch's own defaults, which
 * a gateway started without {@link timedFetch} (the extension's) keeps.
 */
export const DEFAULT_UPSTREAM_TIMEOUTS: UpstreamTimeouts = { connectMs: 10_000, firstByteMs: 300_000, idleMs: 300_000 };

/** The timeout phase an error of the upstream call stands for, if it is one. */
export function timeoutPhaseOf(error: unknown): TimeoutPhase | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 5; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === 'UND_ERR_CONNECT_TIMEOUT') return 'connect';
    if (code === 'UND_ERR_HEADERS_TIMEOUT') return 'first byte';
    if (code === 'UND_ERR_BODY_TIMEOUT') return 'idle';
  }
  return undefined;
}

/** An error met while reading the provider's answer, as the gateway reports it: a timeout, or a broken answer; the gateway's own kinds pass as they are. */
export function answerFailure(error: unknown, url: string, signal: AbortSignal): unknown {
  if (signal.aborted || error instanceof UpstreamError || error instanceof UpstreamUnreachable || error instanceof UpstreamTimeout || error instanceof UpstreamBroken || error instanceof DeliveredStreamError) return error;
  const phase = timeoutPhaseOf(error);
  return phase ? new UpstreamTimeout(url, phase) : new UpstreamBroken(url, error);
}

/** An error the provider reported inside a stream that already went to the client as it came. */
export class DeliveredStreamError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DeliveredStreamError';
  }
}

export interface UpstreamResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly contentType: string;
  readonly body: AsyncIterable<Uint8Array>;
}

/** What a call upstream is given. */
export interface UpstreamInit {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array;
  readonly signal: AbortSignal;
}

/** The subset of `fetch` the gateway uses, injectable for tests. */
export type FetchLike = (url: string, init: UpstreamInit) => Promise<Response>;

/**
 * One call upstream, answered with the provider's status, relayed headers and body as it
 * arrives (whatever the status). `herald serve` makes it with undici's `request`, which reads
 * the answer as a Node stream: a third of fetch's CPU a call, whose web streams were a tenth of
 * the gateway's CPU a request under 50 sessions (issue 26). Other hosts wrap their fetch
 * ({@link requestOverFetch}).
 */
export type RequestLike = (url: string, init: UpstreamInit) => Promise<UpstreamResponse>;

/** A {@link RequestLike} over a fetch. */
export function requestOverFetch(fetchLike: FetchLike): RequestLike {
  return async (url, init) => {
    const response = await fetchLike(url, init);
    return {
      status: response.status,
      headers: relayedHeaders(response.headers),
      contentType: response.headers.get('content-type') ?? '',
      body: response.body ? (response.body as unknown as AsyncIterable<Uint8Array>) : emptyBody(),
    };
  };
}

/** Sends one request upstream; a non-2xx answer becomes an {@link UpstreamError} with its whole body. */
export async function callUpstream(request: RequestLike, url: string, method: string, headers: Record<string, string>, body: string | Uint8Array | undefined, signal: AbortSignal): Promise<UpstreamResponse> {
  let response: UpstreamResponse;
  try {
    response = await request(url, { method, headers, ...(body !== undefined ? { body } : {}), signal });
  } catch (error) {
    if (signal.aborted) throw error;
    const phase = timeoutPhaseOf(error);
    throw phase ? new UpstreamTimeout(url, phase) : new UpstreamUnreachable(url, error);
  }
  if (response.status < 200 || response.status >= 300) {
    const chunks: Uint8Array[] = [];
    try {
      for await (const chunk of response.body) chunks.push(chunk);
    } catch {
      // The error's body broke off: what arrived is the answer.
    }
    throw new UpstreamError(response.status, response.headers, Buffer.concat(chunks));
  }
  return response;
}

async function* emptyBody(): AsyncGenerator<Uint8Array> {
  // Nothing to read.
}

function causeOf(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  return redactSecrets(cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)));
}
