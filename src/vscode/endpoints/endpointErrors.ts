/**
 * Endpoint failures as messages a user can act on: which endpoint, which URL, what happened
 * (connection refused, name not found, TLS, timeout, 401, 404, 429 with its retry-after…) and
 * what to do. Node's `fetch` says only "fetch failed"; the reason is in `error.cause.code`.
 * Pure (no `vscode`).
 */

/** An endpoint's failure, with the facts the message was built from. */
export class EndpointError extends Error {
  constructor(
    message: string,
    /** What kind of failure: `refused`, `dns`, `tls`, `timeout`, `network`, `http-401`, … */
    readonly kind: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'EndpointError';
  }
}

const MANAGE = 'Run "Herald: Manage Endpoints" to check it';

/**
 * Herald's own deadline ran out (passed as the abort reason, so `fetch` rejects with it): the
 * endpoint took the connection, or was still being reached, and sent nothing back in time.
 */
export class EndpointTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no answer within ${formatSeconds(ms)}`);
    this.name = 'TimeoutError';
  }
}

/** "15 s", "1.5 s", "5 min". */
function formatSeconds(ms: number): string {
  if (ms >= 120_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

/** A failure of the request itself (no HTTP answer). */
export function networkError(endpoint: string, url: string, error: unknown): EndpointError {
  const code = causeCode(error);
  const name = (error as { name?: unknown } | null)?.name;
  const where = `Herald: endpoint "${endpoint}" (${url})`;
  if (error instanceof EndpointTimeout) {
    return new EndpointError(
      `${where} did not answer within ${formatSeconds(error.ms)}. Something is listening there but sent nothing back: check that the server has finished starting (a local model may still be loading), that it is not busy with another request, and that the URL is the API's own (…/v1) rather than a proxy or web page that holds the connection open; then test it again. ${MANAGE}.`,
      'timeout',
    );
  }
  if (code === 'UND_ERR_CONNECT_TIMEOUT' || code === 'ETIMEDOUT') {
    return new EndpointError(`${where}: the connection could not be opened in time (${code}). A firewall, VPN or proxy may be dropping it, or the host is down: check that the host and port are reachable from this machine. ${MANAGE}.`, 'timeout');
  }
  if (name === 'TimeoutError' || code === 'UND_ERR_HEADERS_TIMEOUT') {
    return new EndpointError(`${where} did not answer in time (${code ?? 'timeout'}). Check that the server is up and not stuck on another request, or try again. ${MANAGE}.`, 'timeout');
  }
  if (code === 'ECONNREFUSED') return new EndpointError(`${where} refused the connection: nothing is listening there (ECONNREFUSED). Start the server, or fix the URL's host and port. ${MANAGE}.`, 'refused');
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return new EndpointError(`${where}: the host name could not be resolved (${code}). Check the URL's spelling and your network or proxy. ${MANAGE}.`, 'dns');
  if (code !== undefined && /CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY/i.test(code)) {
    return new EndpointError(`${where}: the TLS connection failed (${code}): the server's certificate is not trusted or does not match the host. Use the server's https name as its certificate states, or http:// for a server on this machine.`, 'tls');
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || code === 'UND_ERR_SOCKET') return new EndpointError(`${where} closed the connection (${code}). A proxy or the server dropped it; try again, and check the URL speaks ${url.startsWith('https:') ? 'https' : 'http'}.`, 'network');
  const detail = describe(error);
  return new EndpointError(`${where} could not be reached: ${sentence(`${detail}${code ? ` (${code})` : ''}`)} ${MANAGE}.`, 'network');
}

/** An HTTP answer that is not a success. */
export function httpError(endpoint: string, url: string, status: number, statusText: string, body: string, retryAfter?: string | null): EndpointError {
  const detail = providerMessage(body);
  // The provider's own message ends the first sentence; its full stop (or "!") is not doubled.
  const where = sentence(`Herald: endpoint "${endpoint}" (${url}) answered ${status}${statusText ? ` ${statusText}` : ''}${detail ? `: ${detail}` : ''}`);
  if (status === 401 || status === 403) return new EndpointError(`${where} The API key is missing, wrong or lacks access: run "Herald: Manage Endpoints" and set the key of "${endpoint}".`, `http-${status}`, status);
  if (status === 404) return new EndpointError(`${where} The URL or the model id is wrong: the base URL should end where the API's paths start (e.g. …/v1), and the model id must be one the endpoint lists. ${MANAGE} ("Test the connection" lists its models).`, 'http-404', status);
  if (status === 429) {
    const wait = retryAfterSeconds(retryAfter);
    return new EndpointError(`${where} Rate-limited or out of quota${wait !== undefined ? `: try again in ${wait} s` : ': wait a little and try again'}, or check the plan's limits with the provider.`, 'http-429', status);
  }
  if (status >= 500) return new EndpointError(`${where} The provider had a problem; try again in a moment.`, `http-${status}`, status);
  return new EndpointError(`${where} The endpoint rejected the request as sent; if the message names a field, the model may not support it.`, `http-${status}`, status);
}

/** The text as one finished sentence: a full stop added unless it already ends in one (or in "!", "?", "…"). */
export function sentence(text: string): string {
  const trimmed = text.trimEnd();
  return /[.!?…]["')\]]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** `Retry-After` as seconds (it may be seconds or an HTTP date). */
export function retryAfterSeconds(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const date = Date.parse(value);
  return Number.isFinite(date) ? Math.max(0, Math.ceil((date - now) / 1000)) : undefined;
}

/** The provider's own error message from a JSON body (`{"error": {"message": …}}`), else the start of the body. */
function providerMessage(body: string): string {
  const text = body.trim();
  if (text.length === 0) return '';
  try {
    const parsed = JSON.parse(text) as { error?: { message?: unknown } | string; message?: unknown };
    const message = typeof parsed.error === 'string' ? parsed.error : typeof parsed.error?.message === 'string' ? parsed.error.message : typeof parsed.message === 'string' ? parsed.message : undefined;
    if (message) return message.slice(0, 300);
  } catch {
    // Not JSON: the text itself.
  }
  return text.replace(/\s+/g, ' ').slice(0, 300);
}

function causeCode(error: unknown): string | undefined {
  for (let current: unknown = error, depth = 0; current && depth < 4; current = (current as { cause?: unknown }).cause, depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return undefined;
}

function describe(error: unknown): string {
  const cause = (error as { cause?: unknown } | null)?.cause;
  const message = error instanceof Error ? error.message : String(error);
  return cause instanceof Error && cause.message && cause.message !== message ? `${message} (${cause.message})` : message;
}
