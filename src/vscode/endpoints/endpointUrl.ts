/**
 * The base URL of an endpoint as the user typed or pasted it, checked and normalized: http or
 * https only, no credentials in it, and a pasted request path (`…/v1/chat/completions`,
 * `…/v1/messages`) or trailing slash taken off, because Herald appends the path itself. A URL
 * typed without its scheme (`localhost:18555/v1`) gets one: `http://` for a server on this
 * machine, `https://` for any other host, and a note saying which.
 * Pure (no `vscode`).
 */

export type EndpointKind = 'openai' | 'anthropic';

/** Request paths a user may paste with the base URL; Herald adds them itself. */
const PASTED_PATHS = [/\/chat\/completions\/?$/i, /\/completions\/?$/i, /\/responses\/?$/i, /\/messages\/?$/i, /\/models\/?$/i];

export type UrlCheck = { readonly ok: true; readonly url: string; readonly note?: string } | { readonly ok: false; readonly problem: string };

/** `host[:port][/path]` with no scheme in front: a host name, an IPv4 address or a bracketed IPv6 one. */
const SCHEMELESS = /^(?:\[[0-9a-f:.]+\]|[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*)(?::\d{1,5})?(?:\/\S*)?$/i;

/** Hosts that mean this machine, where a local server (Ollama, LM Studio, vLLM, a proxy) speaks plain http. */
export function isLoopbackHost(host: string): boolean {
  const name = host.toLowerCase().replace(/^\[|\]$/g, '');
  return name === 'localhost' || name.endsWith('.localhost') || /^127(?:\.\d{1,3}){3}$/.test(name) || name === '::1' || name === '0.0.0.0';
}

export function normalizeEndpointUrl(raw: string): UrlCheck {
  let text = raw.trim();
  if (text.length === 0) return { ok: false, problem: 'Enter the base URL, e.g. https://api.openai.com/v1' };
  let schemeNote: string | undefined;
  if (!/^[a-z][a-z0-9+.-]*:\/\//i.test(text) && SCHEMELESS.test(text)) {
    const host = /^(\[[^\]]*\]|[^:/]+)/.exec(text)![1]!;
    const scheme = isLoopbackHost(host) ? 'http' : 'https';
    text = `${scheme}://${text}`;
    schemeNote = `Taken as ${text}${scheme === 'http' ? ' (http for a server on this machine)' : ''}; type the scheme yourself to choose another`;
  }
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return { ok: false, problem: `"${text}" is not a URL; enter one such as https://api.openai.com/v1 or http://localhost:11434/v1` };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, problem: `${parsed.protocol.replace(/:$/, '')} is not an API scheme; use https:// (or http:// for a server on this machine)` };
  if (parsed.username || parsed.password) return { ok: false, problem: 'Leave the key out of the URL: Herald asks for it next and keeps it in secret storage' };
  if (parsed.search || parsed.hash) return { ok: false, problem: 'Leave out the query (?…) and fragment (#…): enter the base URL only' };
  let pathname = parsed.pathname;
  let note: string | undefined;
  for (const pattern of PASTED_PATHS) {
    if (pattern.test(pathname)) {
      const stripped = pathname.replace(pattern, '');
      note = `Herald adds ${pathname.slice(stripped.length)} itself; the base URL is kept without it`;
      pathname = stripped;
      break;
    }
  }
  pathname = pathname.replace(/\/+$/, '');
  const notes = [schemeNote, note].filter((entry): entry is string => entry !== undefined);
  return { ok: true, url: `${parsed.protocol}//${parsed.host}${pathname}`, ...(notes.length > 0 ? { note: notes.join('. ') } : {}) };
}

/** Where the endpoint's chat requests go. */
export function requestUrl(kind: EndpointKind, base: string): string {
  const normalized = normalizeEndpointUrl(base);
  const root = normalized.ok ? normalized.url : base.replace(/\/+$/, '');
  return `${root}${kind === 'openai' ? '/chat/completions' : '/messages'}`;
}

/** Where the endpoint lists its models (both APIs offer GET /models). */
export function modelsUrl(base: string): string {
  const normalized = normalizeEndpointUrl(base);
  return `${normalized.ok ? normalized.url : base.replace(/\/+$/, '')}/models`;
}
