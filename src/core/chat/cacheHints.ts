/**
 * Cache hints: the marks a client puts in a request to say where the provider should cache
 * (Anthropic's `cache_control` on a block, Copilot's `cache_control` data parts through the
 * VS Code Language Model API, `copilot_cache_control` on a message of Copilot's own API).
 *
 * They are not content. Clients move them from request to request (Copilot keeps its last
 * breakpoints on the latest tool results, so a history message gains one and loses it again
 * a few requests later; several Anthropic clients mark the last two user messages), and the
 * provider's cached prefix is the content before a breakpoint, whichever block carries it. So
 * Herald decides a history message on its content without hints, replays that decision
 * whatever hints the client puts on the message next time, and writes the hints back where the
 * client put them in this request: `stripCacheHints` and `applyCacheHints` below.
 */
import type { ChatMessage, Extra, Part, ResultContentPart } from './types';

/** MIME type of Copilot's breakpoint data parts (`CustomDataPartMimeTypes.CacheControl`). */
export const CACHE_CONTROL_MIME = 'cache_control';

/** Keys that hold a cache hint on a part or a message. */
const PART_HINT_KEYS = ['cache_control'] as const;
const MESSAGE_HINT_KEYS = ['cache_control', 'copilot_cache_control'] as const;

/** A data part that is only a cache breakpoint. */
export function isCacheBreakpointPart(part: Part | ResultContentPart): boolean {
  return part.type === 'data' && part.mimeType === CACHE_CONTROL_MIME;
}

/**
 * A message's hints, against its form without them. Part and content indexes of `extras` are
 * those of the message without its breakpoint parts; a breakpoint's `at` is where it stands in
 * the message with them (so putting them back in ascending order rebuilds it exactly).
 */
export interface MessageCacheHints {
  /** The message's own `extra`, as it was, when it held a hint. */
  readonly messageExtra?: Extra;
  /** Part extras that held a hint, as they were: `[partIndex, contentIndex (-1: the part itself), extra]`. */
  readonly extras: readonly (readonly [number, number, Extra])[];
  /** Breakpoint parts of the message: `[at, part]`. */
  readonly breakpoints: readonly (readonly [number, Part])[];
  /** Breakpoint parts inside tool results: `[partIndex, at, content]` (partIndex without breakpoint parts). */
  readonly contentBreakpoints: readonly (readonly [number, number, ResultContentPart])[];
}

function hasHintKey(extra: Extra | undefined, keys: readonly string[]): boolean {
  if (!extra) return false;
  for (const key of keys) if (key in extra) return true;
  return false;
}

function withoutKeys(extra: Extra, keys: readonly string[]): Extra | undefined {
  const rest: Extra = {};
  let any = false;
  for (const [key, value] of Object.entries(extra)) {
    if (keys.includes(key)) continue;
    rest[key] = value;
    any = true;
  }
  return any ? rest : undefined;
}

/** Whether a message carries any cache hint (cheap: most messages carry none). */
export function hasCacheHints(message: ChatMessage): boolean {
  if (hasHintKey(message.extra, MESSAGE_HINT_KEYS)) return true;
  for (const part of message.parts) {
    if (part.type === 'opaque') continue;
    if (isCacheBreakpointPart(part) || hasHintKey(part.extra, PART_HINT_KEYS)) return true;
    if (part.type === 'tool_result') for (const inner of part.content) if (inner.type !== 'opaque' && (isCacheBreakpointPart(inner) || hasHintKey(inner.extra, PART_HINT_KEYS))) return true;
  }
  return false;
}

/** The message without its cache hints, and the hints; the same message object and no hints when it has none. */
export function stripCacheHints(message: ChatMessage): { bare: ChatMessage; hints?: MessageCacheHints } {
  if (!hasCacheHints(message)) return { bare: message };
  const extras: [number, number, Extra][] = [];
  const breakpoints: [number, Part][] = [];
  const contentBreakpoints: [number, number, ResultContentPart][] = [];
  const parts: Part[] = [];
  message.parts.forEach((part, at) => {
    if (isCacheBreakpointPart(part)) {
      breakpoints.push([at, part]);
      return;
    }
    const partIndex = parts.length;
    let bare: Part = part;
    if (part.type !== 'opaque' && part.extra && hasHintKey(part.extra, PART_HINT_KEYS)) {
      extras.push([partIndex, -1, part.extra]);
      bare = { ...part, extra: withoutKeys(part.extra, PART_HINT_KEYS) } as Part;
      if (bare.type !== 'opaque' && bare.extra === undefined) delete (bare as { extra?: Extra }).extra;
    }
    if (bare.type === 'tool_result') {
      const content: ResultContentPart[] = [];
      let changed = false;
      bare.content.forEach((inner, innerAt) => {
        if (isCacheBreakpointPart(inner)) {
          contentBreakpoints.push([partIndex, innerAt, inner]);
          changed = true;
          return;
        }
        if (inner.type !== 'opaque' && inner.extra && hasHintKey(inner.extra, PART_HINT_KEYS)) {
          extras.push([partIndex, content.length, inner.extra]);
          const stripped = { ...inner, extra: withoutKeys(inner.extra, PART_HINT_KEYS) };
          if (stripped.extra === undefined) delete (stripped as { extra?: Extra }).extra;
          content.push(stripped);
          changed = true;
          return;
        }
        content.push(inner);
      });
      if (changed) bare = { ...bare, content };
    }
    parts.push(bare);
  });
  const hints: MessageCacheHints = {
    ...(hasHintKey(message.extra, MESSAGE_HINT_KEYS) ? { messageExtra: message.extra } : {}),
    extras,
    breakpoints,
    contentBreakpoints,
  };
  const bare: ChatMessage = { ...message, parts };
  if (hints.messageExtra) {
    const rest = withoutKeys(message.extra!, MESSAGE_HINT_KEYS);
    if (rest) (bare as { extra?: Extra }).extra = rest;
    else delete (bare as { extra?: Extra }).extra;
  }
  return { bare, hints };
}

/** The extra a hint-free `current` gets back: the original one when the rest of it is unchanged (same key order), else current's plus the hint keys. */
function hinted(current: Extra | undefined, original: Extra, keys: readonly string[]): Extra {
  const rest = withoutKeys(original, keys);
  if (JSON.stringify(rest) === JSON.stringify(current)) return original;
  const added: Extra = { ...(current ?? {}) };
  for (const key of keys) if (key in original) added[key] = original[key];
  return added;
}

/**
 * Puts `hints` (as {@link stripCacheHints} took them from a message) on a message without
 * hints of the same shape (the same parts, possibly rewritten): the client's hints where the
 * client put them.
 */
export function applyCacheHints(bare: ChatMessage, hints: MessageCacheHints | undefined): ChatMessage {
  if (!hints) return bare;
  const parts = [...bare.parts];
  for (const [partIndex, contentIndex, extra] of hints.extras) {
    const part = parts[partIndex];
    if (!part || part.type === 'opaque') continue;
    if (contentIndex < 0) {
      parts[partIndex] = { ...part, extra: hinted(part.extra, extra, PART_HINT_KEYS) } as Part;
      continue;
    }
    if (part.type !== 'tool_result') continue;
    const inner = part.content[contentIndex];
    if (!inner || inner.type === 'opaque') continue;
    const content = [...part.content];
    content[contentIndex] = { ...inner, extra: hinted(inner.extra, extra, PART_HINT_KEYS) };
    parts[partIndex] = { ...part, content };
  }
  for (const [partIndex, at, inner] of [...hints.contentBreakpoints].sort((a, b) => a[0] - b[0] || a[1] - b[1])) {
    const part = parts[partIndex];
    if (part?.type !== 'tool_result') continue;
    const content = [...part.content];
    content.splice(Math.min(at, content.length), 0, inner);
    parts[partIndex] = { ...part, content };
  }
  for (const [at, part] of [...hints.breakpoints].sort((a, b) => a[0] - b[0])) parts.splice(Math.min(at, parts.length), 0, part);
  const message: ChatMessage = { ...bare, parts };
  if (hints.messageExtra) (message as { extra?: Extra }).extra = hinted(bare.extra, hints.messageExtra, MESSAGE_HINT_KEYS);
  return message;
}

/**
 * Maps a part index of the message without its breakpoint parts to the index it has with them
 * (elision sites are recorded by part index).
 */
export function hintedPartIndex(hints: MessageCacheHints | undefined, bareIndex: number): number {
  if (!hints || hints.breakpoints.length === 0) return bareIndex;
  let index = bareIndex;
  for (const [at] of [...hints.breakpoints].sort((a, b) => a[0] - b[0])) if (at <= index) index++;
  return index;
}

/** The inverse of {@link hintedPartIndex}: the index without breakpoint parts (-1 for a breakpoint part itself). */
export function barePartIndex(hints: MessageCacheHints | undefined, index: number): number {
  if (!hints || hints.breakpoints.length === 0) return index;
  let before = 0;
  for (const [at] of hints.breakpoints) {
    if (at === index) return -1;
    if (at < index) before++;
  }
  return index - before;
}

/** Maps a tool-result content index without breakpoint contents to the index with them. */
export function hintedContentIndex(hints: MessageCacheHints | undefined, barePart: number, bareContent: number): number {
  if (!hints || bareContent < 0) return bareContent;
  let index = bareContent;
  for (const [partIndex, at] of [...hints.contentBreakpoints].sort((a, b) => a[1] - b[1])) if (partIndex === barePart && at <= index) index++;
  return index;
}

/** The inverse of {@link hintedContentIndex}. */
export function bareContentIndex(hints: MessageCacheHints | undefined, barePart: number, content: number): number {
  if (!hints || content < 0) return content;
  let before = 0;
  for (const [partIndex, at] of hints.contentBreakpoints) {
    if (partIndex !== barePart) continue;
    if (at === content) return -1;
    if (at < content) before++;
  }
  return content - before;
}

/** JSON of a message without its cache hints: equal for two messages that differ only in where the client put its hints. */
export function contentKey(message: ChatMessage): string {
  return JSON.stringify(stripCacheHints(message).bare);
}
