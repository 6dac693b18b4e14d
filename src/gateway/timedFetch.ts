/**
 * The upstream fetch of `herald serve` with its three timeouts (connect, first byte, idle
 * between two pieces of the answer) enforced by undici's agent, the HTTP client Node's own
 * fetch is built on. In its own file so only the CLI bundle carries undici; an expiry surfaces
 * as an error {@link timeoutPhaseOf} recognises (a 504 for the client, never a second call).
 */
import { Agent, fetch as undiciFetch } from 'undici';
import type { FetchLike, UpstreamTimeouts } from './upstream';

/** The upstream fetch with the timeouts enforced; `close` (once or more) ends the agent's connections. */
export function timedFetch(timeouts: UpstreamTimeouts): { readonly fetch: FetchLike; close(): Promise<void> } {
  const agent = new Agent({ connect: { timeout: timeouts.connectMs }, headersTimeout: timeouts.firstByteMs, bodyTimeout: timeouts.idleMs });
  let closing: Promise<void> | undefined;
  return {
    fetch: (url, init) => undiciFetch(url, { ...init, dispatcher: agent }) as unknown as Promise<Response>,
    close: () => (closing ??= agent.close()),
  };
}

