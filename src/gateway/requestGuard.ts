/**
 * Who may talk to the gateway, decided before anything else is read: the request's `Host` must
 * be one of the gateway's own names (its address, the localhost names on a loopback bind, the
 * machine's addresses on a wildcard bind, and the names given with `--allowed-host`), so a
 * DNS-rebinding web page is refused; a browser's `Origin` must be one given with
 * `--allowed-origin`; and once a token or a team of users is set, every request presents one
 * (loopback included: a local forwarder must not open the door). Every route follows the same
 * rule, `/herald/*` included.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import * as os from 'node:os';
import type { User, UserDirectory } from './users';

export interface GuardOptions {
  /** The address the gateway listens on. */
  readonly bind: string;
  /** More names the `Host` header may carry (a reverse proxy's, a DNS name of the machine). */
  readonly allowedHosts?: readonly string[];
  /** Web origins allowed to call the gateway from a browser (`https://app.example`). */
  readonly allowedOrigins?: readonly string[];
  /** The one token every client presents, when set. */
  readonly token?: string;
  /** The team's users, when set: each presents their own token and is the request's tenant. */
  readonly users?: UserDirectory;
}

/** A request's path with the token a `/herald/<token>/…` prefix carried taken out. */
export interface Route {
  /** The path the gateway routes by (`/v1/messages`, `/herald/decisions`, `/`). */
  readonly path: string;
  readonly search: string;
  readonly searchParams: URLSearchParams;
  /** The token from the path prefix or the `x-herald-token` header. */
  readonly presented: string | undefined;
}

export type Admission = { readonly ok: true; readonly user?: User } | { readonly ok: false; readonly status: number; readonly message: string };

/** Paths under /herald/ that are routes, not a token prefix. */
const HERALD_ROUTES = new Set(['/herald/decisions', '/herald/health']);

/** The route of a request; undefined when its path cannot be read (a broken percent-encoding). */
export function routeOf(request: IncomingMessage): Route | undefined {
  let url: URL;
  try {
    url = new URL(request.url ?? '/', 'http://gateway');
  } catch {
    return undefined;
  }
  const header = request.headers['x-herald-token'];
  let presented = Array.isArray(header) ? header[0] : header;
  let path = url.pathname;
  const prefixed = HERALD_ROUTES.has(path) ? null : /^\/herald\/([^/]+)(\/.*)?$/.exec(path);
  if (prefixed) {
    try {
      presented = decodeURIComponent(prefixed[1]!);
    } catch {
      return undefined;
    }
    path = prefixed[2] ?? '/';
  }
  return { path, search: url.search, searchParams: url.searchParams, presented };
}

/** Whether an address (not a name) is a loopback one: 127.0.0.0/8, ::1, or either mapped. `localhost` counts by definition (RFC 6761). */
export function isLoopback(address: string | undefined): boolean {
  if (!address) return false;
  const bare = address.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (bare === 'localhost') return true;
  const family = isIP(bare);
  if (family === 4) return bare.startsWith('127.');
  if (family === 6) {
    if (bare === '::1' || bare === '0:0:0:0:0:0:0:1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare);
    return mapped !== null && isIP(mapped[1]!) === 4 && mapped[1]!.startsWith('127.');
  }
  return false;
}

function isWildcard(address: string): boolean {
  return address === '0.0.0.0' || address === '::' || address === '[::]' || address === '';
}

/** The host names the gateway answers to (lowercase, IPv6 without brackets). */
export function ownHostNames(options: Pick<GuardOptions, 'bind' | 'allowedHosts'>): Set<string> {
  const names = new Set<string>();
  const bind = options.bind.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  if (isWildcard(bind)) {
    for (const addresses of Object.values(os.networkInterfaces())) for (const entry of addresses ?? []) names.add(entry.address.toLowerCase().replace(/%.*$/, ''));
    names.add(os.hostname().toLowerCase());
    for (const name of ['localhost', '127.0.0.1', '::1']) names.add(name);
  } else {
    names.add(bind);
    if (isLoopback(bind)) for (const name of ['localhost', '127.0.0.1', '::1']) names.add(name);
  }
  for (const name of options.allowedHosts ?? []) names.add(name.trim().toLowerCase().replace(/^\[(.*)\]$/, '$1').replace(/\.$/, ''));
  return names;
}

/** The host name of a `Host` header: lowercase, without its port, brackets or trailing dot. */
export function hostNameOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim().toLowerCase();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(value);
  if (bracketed) return bracketed[1];
  if (isIP(value) === 6) return value;
  const name = value.replace(/:\d+$/, '').replace(/\.$/, '');
  return name.length > 0 ? name : undefined;
}

/** Web origins as browsers write them: scheme, host, port; lowercase, no trailing slash. */
function normalOrigin(origin: string): string {
  return origin.trim().toLowerCase().replace(/\/+$/, '');
}

export class RequestGuard {
  private readonly hosts: Set<string>;
  private readonly origins: Set<string>;

  constructor(private readonly options: GuardOptions) {
    this.hosts = ownHostNames(options);
    this.origins = new Set((options.allowedOrigins ?? []).map(normalOrigin));
  }

  /** Whether the request is addressed to this gateway (its `Host`) from a place it answers (no foreign web origin). */
  checkPlace(request: IncomingMessage): Admission {
    const host = hostNameOf(request.headers.host);
    if (host === undefined || !this.hosts.has(host)) {
      return { ok: false, status: 421, message: `Herald: this gateway does not answer for the host "${(request.headers.host ?? '').slice(0, 100)}"; if that name is really this gateway's (a proxy in front, a DNS name), start it with --allowed-host NAME` };
    }
    const origin = request.headers.origin;
    if (origin !== undefined && !this.origins.has(normalOrigin(origin))) {
      return { ok: false, status: 403, message: `Herald: requests from the web origin "${origin.slice(0, 100)}" are refused; a page that must call this gateway needs --allowed-origin ${origin.slice(0, 100)}` };
    }
    return { ok: true };
  }

  /** Whether the request presents the token (or a user's token) once one is set, and whose. */
  checkIdentity(route: Route): Admission {
    if (this.options.users) {
      const user = this.options.users.find(route.presented);
      if (!user) return { ok: false, status: 401, message: 'Herald: this gateway needs your user token (the x-herald-token header, or a base URL starting /herald/<token>/); ask its admin for one (herald users add NAME)' };
      return { ok: true, user };
    }
    if (this.options.token !== undefined && !sameSecret(route.presented, this.options.token)) {
      return { ok: false, status: 401, message: 'Herald: this gateway needs its token (the x-herald-token header, or a base URL starting /herald/<token>/)' };
    }
    return { ok: true };
  }

  /** The CORS headers an allowed origin's answer carries (none for a request without one). */
  corsHeaders(request: IncomingMessage): Record<string, string> {
    const origin = request.headers.origin;
    if (origin === undefined || !this.origins.has(normalOrigin(origin))) return {};
    return { 'access-control-allow-origin': origin, vary: 'origin' };
  }

  /** The answer to a browser's preflight from an allowed origin. */
  preflightHeaders(request: IncomingMessage): Record<string, string> {
    const asked = request.headers['access-control-request-headers'];
    return {
      ...this.corsHeaders(request),
      'access-control-allow-methods': 'GET, POST, HEAD, OPTIONS',
      'access-control-allow-headers': typeof asked === 'string' ? asked : 'content-type, authorization, x-api-key, x-herald-token',
      'access-control-max-age': '600',
    };
  }
}

/** Whether a body's content type is JSON (`application/json`, parameters allowed). */
export function isJsonContentType(header: string | undefined): boolean {
  if (header === undefined) return false;
  return header.split(';')[0]!.trim().toLowerCase() === 'application/json';
}

function sameSecret(presented: string | undefined, expected: string): boolean {
  if (presented === undefined) return false;
  const a = Buffer.from(presented);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}
