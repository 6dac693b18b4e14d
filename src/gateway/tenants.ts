/**
 * Whose request this is. Everything the gateway keeps for a request (stashed originals, decided
 * history, pins, cached answers) belongs to its tenant, and a tenant sees only its own.
 *
 * Without a user directory the tenant is a keyed hash of every credential the request carries,
 * wherever a provider accepts one (headers, query keys, cookies): the credential itself is never
 * kept. A request that carries none is anonymous: it shares nothing, not even with another
 * anonymous request (its state lives for that request alone). With a user directory
 * (`herald serve --users`) the tenant is the user.
 */
import { createHmac, randomBytes } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

export interface Tenant {
  /** A stable id (hex of a keyed hash) to namespace the tenant's state with; random for an anonymous request. */
  readonly id: string;
  /** True for a request without any credential: nothing it leaves is found by another request. */
  readonly anonymous: boolean;
  /** The user's name, when the gateway knows its users. */
  readonly user?: string;
}

/**
 * Headers that carry a credential at some provider: `authorization` (OpenAI, OAuth bearers,
 * AWS signatures), `x-api-key` (Anthropic), `api-key` (Azure OpenAI), `x-goog-api-key`
 * (Gemini), `cookie` (session-authenticated proxies), and the less common key headers of
 * OpenAI-compatible servers.
 */
export const CREDENTIAL_HEADERS: readonly string[] = ['authorization', 'x-api-key', 'api-key', 'x-goog-api-key', 'cookie', 'x-auth-token', 'x-access-token', 'anthropic-api-key', 'openai-api-key'];

/** Query parameters that carry a credential (`?key=` for Gemini, `api-version` is not one). */
export const CREDENTIAL_QUERY_PARAMETER = /^(?:key|api[-_]?key|access[-_]?token|auth|token|code|sig|signature|x-goog-api-key|password|secret)$/i;

/** The credential parts of a request, `name=value` each in a fixed order; empty when it carries none. */
export function credentialsOf(headers: IncomingHttpHeaders, search: URLSearchParams): string[] {
  const parts: string[] = [];
  for (const name of CREDENTIAL_HEADERS) {
    const value = headers[name];
    const text = Array.isArray(value) ? value.join('\n') : value;
    if (text !== undefined && text.trim().length > 0) parts.push(`header:${name}=${text}`);
  }
  const query = [...search].filter(([name, value]) => CREDENTIAL_QUERY_PARAMETER.test(name) && value.length > 0).map(([name, value]) => `query:${name.toLowerCase()}=${value}`);
  return [...parts, ...query.sort()];
}

/** The tenant of a request by its credentials (see the file's comment). */
export function tenantOfRequest(headers: IncomingHttpHeaders, search: URLSearchParams, key: Uint8Array): Tenant {
  const credentials = credentialsOf(headers, search);
  if (credentials.length === 0) return anonymousTenant();
  return { id: keyedId(key, `credential\u0000${credentials.join('\u0000')}`), anonymous: false };
}

/** The tenant of a known user: the same id whatever provider credential they send. */
export function tenantOfUser(name: string, key: Uint8Array): Tenant {
  return { id: keyedId(key, `user\u0000${name}`), anonymous: false, user: name };
}

/** A tenant of its own for one request without a credential. */
export function anonymousTenant(): Tenant {
  return { id: `anon-${randomBytes(8).toString('hex')}`, anonymous: true };
}

function keyedId(key: Uint8Array, text: string): string {
  return createHmac('sha256', key).update(text, 'utf8').digest('hex').slice(0, 24);
}
