/**
 * The upstream calls of `herald serve` with its three timeouts (connect, first byte, idle
 * between two pieces of the answer) enforced by undici's agent, the HTTP client Node's own
 * fetch is built on. In its own file so only the CLI bundle carries undici; an expiry surfaces
 * as an error {@link timeoutPhaseOf} recognises (a 504 for the client, never a second call).
 * The gateway calls with `request` (undici's own API: the answer as a Node stream, no web
 * streams); `fetch` over the same agent stays for what takes a fetch.
 */
import { Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { Agent, fetch as undiciFetch, request as undiciRequest, type Dispatcher } from 'undici';
import { relayedHeaderRecord, type FetchLike, type RequestLike, type UpstreamTimeouts } from './upstream';

/** The upstream calls with the timeouts enforced; `close` (once or more) ends the agent's connections. */
export function timedFetch(timeouts: UpstreamTimeouts): { readonly fetch: FetchLike; readonly request: RequestLike; close(): Promise<void> } {
  const agent = new Agent({ connect: { timeout: timeouts.connectMs }, headersTimeout: timeouts.firstByteMs, bodyTimeout: timeouts.idleMs });
  let closing: Promise<void> | undefined;
  return {
    fetch: (url, init) => undiciFetch(url, { ...init, dispatcher: agent }) as unknown as Promise<Response>,
    request: async (url, init) => {
      const answer = await undiciRequest(url, { method: init.method as Dispatcher.HttpMethod, headers: init.headers, ...(init.body !== undefined ? { body: init.body } : {}), signal: init.signal, dispatcher: agent });
      return {
        status: answer.statusCode,
        headers: relayedHeaderRecord(answer.headers),
        contentType: firstValue(answer.headers['content-type']) ?? '',
        body: decoded(answer.body, firstValue(answer.headers['content-encoding'])),
      };
    },
    close: () => (closing ??= agent.close()),
  };
}

function firstValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/**
 * The body as fetch would hand it: a provider that compressed it although the gateway asked for
 * `identity` is inflated (its content-encoding header is not relayed).
 */
export function decoded(body: Readable, encoding: string | undefined): AsyncIterable<Uint8Array> {
  const coding = encoding?.trim().toLowerCase();
  const inflate = coding === 'gzip' || coding === 'x-gzip' ? zlib.createGunzip() : coding === 'deflate' ? zlib.createInflate() : coding === 'br' ? zlib.createBrotliDecompress() : undefined;
  if (!inflate) return body;
  body.on('error', (error) => inflate.destroy(error));
  return body.pipe(inflate);
}
