/**
 * The one redaction every log line and record of the gateway goes through: a secret a client
 * put in a URL or a header (the gateway's token in `/herald/<token>/…`, a key in `?key=`, a
 * bearer token, a Herald user token, a provider key quoted in an error) never reaches a log,
 * the decisions file or `/herald/decisions`.
 */
import type { Logger } from '../core/ports';

export const REDACTED = '[redacted]';

/** `/herald/<token>` in a path (the known routes under /herald are not tokens). */
const PATH_TOKEN = /(\/herald\/)(?!(?:decisions|health)(?:[/?#\s"'`]|$))[^/?#\s"'`]+/g;
/** A query parameter that carries a credential, up to the next `&`, `#`, quote or space. */
const QUERY_SECRET = /([?&;](?:key|api[-_]?key|apikey|access[-_]?token|auth|authorization|token|code|sig|signature|x-goog-api-key|password|secret|client[-_]?secret)=)[^&#\s"'`]*/gi;
/** Credentials in an Authorization-style value. */
const SCHEME_SECRET = /\b(Bearer|Basic|Token)\s+[A-Za-z0-9._~+/=-]{4,}/g;
/** Key shapes of the providers and Herald's own user tokens. */
const KEY_SHAPES = /\b(?:sk-[A-Za-z0-9_-]{16,}|AIza[0-9A-Za-z_-]{30,}|hrk_[A-Za-z0-9_-]{20,})/g;

/**
 * `text` with every secret it may carry replaced by `[redacted]`: the shapes above, and each of
 * `known` (the gateway's own token) wherever it stands.
 */
export function redactSecrets(text: string, known: readonly string[] = []): string {
  let out = text.replace(PATH_TOKEN, `$1${REDACTED}`).replace(QUERY_SECRET, `$1${REDACTED}`).replace(SCHEME_SECRET, `$1 ${REDACTED}`).replace(KEY_SHAPES, REDACTED);
  for (const secret of known) {
    if (secret.length === 0) continue;
    out = out.split(secret).join(REDACTED);
    // The same secret as it stands percent-encoded in a URL.
    const encoded = encodeURIComponent(secret);
    if (encoded !== secret) out = out.split(encoded).join(REDACTED);
  }
  return out;
}

/** A record (any JSON value) with {@link redactSecrets} applied to every string in it. */
export function redactRecord<T>(value: T, known: readonly string[] = []): T {
  return redactValue(value, known) as T;
}

function redactValue(value: unknown, known: readonly string[]): unknown {
  if (typeof value === 'string') return redactSecrets(value, known);
  if (Array.isArray(value)) return value.map((item) => redactValue(item, known));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [name, inner] of Object.entries(value)) out[name] = redactValue(inner, known);
    return out;
  }
  return value;
}

/** A logger whose every line went through {@link redactSecrets} first. */
export function redactingLogger(logger: Logger, known: () => readonly string[] = () => []): Logger {
  return {
    info: (code, message) => logger.info(code, redactSecrets(message, known())),
    warn: (code, message) => logger.warn(code, redactSecrets(message, known())),
    error: (code, message) => logger.error(code, redactSecrets(message, known())),
  };
}
