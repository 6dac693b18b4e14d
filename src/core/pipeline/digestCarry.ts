/**
 * Digests carried from a session's previous request to its next. A client re-sends its whole
 * history every turn as new objects, and hashing every message's JSON again was about a fifth
 * of a warm turn. A message equal, key for key and value for value, to the one at its index in
 * the session's previous request writes the same JSON, so it takes that message's digest. The
 * comparison reads each value once and builds no text: about a tenth of the hashing's time.
 * Anything it cannot vouch for (a class instance, a function, a `toJSON`, great depth) is
 * hashed as before, so a digest is always that of the message's own JSON.
 */
import { carryDigest, jsonLengthOf, knownDigestOf } from './hash';

/** Past this depth two values are not compared (they are hashed instead). */
const MAX_DEPTH = 64;

/** Characters of JSON kept over all sessions: a client's previous request is otherwise garbage, so the memory it holds is bounded. */
const MAX_REMEMBERED_CHARS = 16_000_000;

export class DigestCarry {
  /** Each session's latest messages and their JSON's length, oldest first. */
  private readonly latest = new Map<string, { readonly messages: readonly object[]; readonly chars: number }>();
  private chars = 0;

  /**
   * @param sessions how many sessions' latest messages are kept (the least recently seen go first).
   * @param maxRememberedChars how much JSON all kept requests may hold together; a request longer than that is not kept.
   */
  constructor(private readonly sessions = 16, private readonly maxRememberedChars = MAX_REMEMBERED_CHARS) {}

  /**
   * Gives each message of `messages` that has no digest yet the digest of the message at its
   * index in the session's previous request, when the two write the same JSON. Returns how
   * many took one.
   */
  carry(sessionId: string, messages: readonly object[]): number {
    const previous = this.latest.get(sessionId)?.messages;
    if (previous === undefined) return 0;
    let carried = 0;
    const shared = Math.min(previous.length, messages.length);
    for (let index = 0; index < shared; index++) {
      const before = previous[index]!;
      const now = messages[index]!;
      if (before === now || knownDigestOf(now) !== undefined || knownDigestOf(before) === undefined) continue;
      if (sameJson(before, now, 0) && carryDigest(before, now)) carried++;
    }
    return carried;
  }

  /** Keeps `messages` (hashed by now) as the session's latest; the least recently seen sessions go when there are too many or they hold too much. */
  remember(sessionId: string, messages: readonly object[]): void {
    this.forget(sessionId);
    let chars = 0;
    for (const message of messages) {
      chars += jsonLengthOf(message);
      if (chars > this.maxRememberedChars) return;
    }
    this.latest.set(sessionId, { messages, chars });
    this.chars += chars;
    for (const oldest of this.latest.keys()) {
      if (this.latest.size <= this.sessions && this.chars <= this.maxRememberedChars) break;
      this.forget(oldest);
    }
  }

  private forget(sessionId: string): void {
    const kept = this.latest.get(sessionId);
    if (kept === undefined) return;
    this.latest.delete(sessionId);
    this.chars -= kept.chars;
  }
}

/**
 * Whether `a` and `b` surely write the same JSON text: the same primitives, or plain objects
 * with the same keys in the same order and arrays of the same length whose values are the
 * same JSON. False whenever it cannot tell (the caller hashes then).
 */
export function sameJson(a: unknown, b: unknown, depth: number): boolean {
  if (typeof a !== 'object' || a === null) return a === b && typeof a !== 'function';
  if (typeof b !== 'object' || b === null || depth >= MAX_DEPTH) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let index = 0; index < a.length; index++) if (!sameJson(a[index], b[index], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const keys = Object.keys(a);
  const otherKeys = Object.keys(b);
  if (keys.length !== otherKeys.length) return false;
  for (let index = 0; index < keys.length; index++) {
    const key = keys[index]!;
    if (key !== otherKeys[index] || key === 'toJSON') return false;
    if (!sameJson((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1)) return false;
  }
  return true;
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value) as unknown;
  return prototype === Object.prototype || prototype === null;
}
