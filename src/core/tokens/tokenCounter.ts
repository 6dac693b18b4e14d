/**
 * Token counting with a real BPE tokenizer (OpenAI's o200k_base: gpt-tokenizer's vocabulary and
 * merges, its pre-tokenizer run as a scanner, see `o200kCount.ts`).
 *
 * Claude, Gemini and other families publish no tokenizer; for them the o200k count is
 * scaled by a documented factor (see {@link FAMILY_FACTORS}) and the result is marked as
 * an estimate. Counts are memoized per text, and per part, message and tool object (the chat
 * model's objects are never mutated: a strategy that changes one builds a new one), so the
 * pipeline's count of a request before and after each strategy costs a lookup per message.
 */
import { GenerationalCache } from '../generationalCache';
import type { ChatMessage, ChatRequest, Part, ToolDefinition } from '../chat/types';
import { knownDigestOf } from '../pipeline/hash';
import { checkDeadline } from '../pipeline/deadline';
import { countO200k } from './o200kCount';
import { longRuns } from './o200kPieces';

/**
 * Families without a public tokenizer: the o200k count times this factor. Anthropic's
 * tokenizer produces more tokens than o200k for the same English and code (about 1.2×
 * on mixed code and prose is a commonly published figure); Gemini's SentencePiece about 1.05×.
 */
export const FAMILY_FACTORS: Readonly<Record<string, number>> = { claude: 1.2, gemini: 1.05 };

/** Per-message overhead OpenAI documents for chat formatting (role and separators). */
const MESSAGE_OVERHEAD = 3;
/**
 * Texts up to this size are counted exactly. Above it, evenly spaced windows of
 * `SAMPLE_WINDOW_CHARS` are counted and the total scaled by length: deterministic, within a
 * few percent on real output, and bounded in time (random data such as base64 costs about
 * 10 µs a character to encode, so an exact count of a 10 MB blob would take minutes).
 */
const EXACT_LIMIT_CHARS = 128 * 1024;
const SAMPLE_WINDOW_CHARS = 16 * 1024;
const SAMPLE_WINDOWS = 6;
/**
 * BPE merging is quadratic in the length of one pre-token, and a run of characters with no
 * whitespace (a base64 blob, a minified line, `xxxx…`) is one pre-token. Such runs are counted
 * in pieces of this many characters: exact everywhere else, a close over-estimate inside them.
 */
const LONG_RUN_CHARS = 1024;

export interface TokenCount {
  readonly tokens: number;
  /** True when the family has no public tokenizer and the count is scaled from o200k. */
  readonly estimated: boolean;
}

/**
 * MIME types of data parts that carry no content a provider bills: Copilot's cache breakpoints
 * and stateful markers, its thinking, context-management, phase and usage bookkeeping
 * (`CustomDataPartMimeTypes`), which its own converters drop or turn into request metadata.
 */
const UNBILLED_DATA_MIMES: ReadonlySet<string> = new Set(['cache_control', 'stateful_marker', 'thinking', 'context_management', 'phase_data', 'token_usage']);

/** A typical image costs about 765 tokens at OpenAI's high detail for 512×512 tiles; a flat figure keeps counts deterministic. */
const IMAGE_TOKENS = 765;

export class TokenCounter {
  private readonly memo: GenerationalCache<string, number>;
  /** Counts of objects already counted: parts, messages, tools (never mutated, so a count stays true). */
  private readonly objects = new WeakMap<object, number>();
  /** Message counts by the digest of the message's JSON (see {@link countMessage}). */
  private readonly messageCounts: GenerationalCache<string, number>;
  /** Counts of message and tool arrays, with the items each held when counted. */
  private readonly arrays = new WeakMap<readonly object[], { readonly items: readonly object[]; readonly tokens: number }>();

  /**
   * @param maxEntries how many distinct texts (and message digests) to remember; the older of
   * two generations goes first (see GenerationalCache: evicting from a full `Map` one key at a
   * time cost more than counting a short text).
   */
  constructor(maxEntries = 20_000) {
    this.memo = new GenerationalCache(maxEntries);
    this.messageCounts = new GenerationalCache(maxEntries);
  }

  /** Tokens of one text with o200k_base. */
  count(text: string): number {
    if (text.length === 0) return 0;
    const known = this.memo.get(text);
    if (known !== undefined) return known;
    const tokens = text.length <= EXACT_LIMIT_CHARS ? countBounded(text) : countSampled(text);
    this.memo.set(text, tokens);
    return tokens;
  }

  /**
   * Tokens of one part: text, a tool call's name and arguments, a tool result's text; an image
   * a fixed cost; bookkeeping data (Copilot's breakpoints, markers) nothing; a thinking block its
   * thinking text (its signature is not text the provider bills as such).
   */
  countPart(part: Part): number {
    const known = this.objects.get(part);
    if (known !== undefined) return known;
    const tokens = this.countPartUncached(part);
    this.objects.set(part, tokens);
    return tokens;
  }

  private countPartUncached(part: Part): number {
    switch (part.type) {
      case 'text':
        return this.count(part.text);
      case 'tool_call':
        return this.count(part.name) + this.count(typeof part.arguments === 'string' ? part.arguments : safeJson(part.arguments ?? null));
      case 'tool_result': {
        let sum = 0;
        for (const inner of part.content) sum += this.countPart(inner);
        return sum;
      }
      case 'data':
        if (UNBILLED_DATA_MIMES.has(part.mimeType)) return 0;
        if (part.mimeType.startsWith('image/')) return IMAGE_TOKENS;
        // Other bytes (a PDF, JSON data): about four bytes a token, from the base64 length.
        return part.encoding === 'base64' ? Math.ceil((part.data.length * 3) / 4 / 4) : this.count(part.data);
      case 'opaque': {
        const raw = part.raw as { type?: unknown; thinking?: unknown } | null;
        if (raw !== null && typeof raw === 'object' && raw.type === 'thinking' && typeof raw.thinking === 'string') return this.count(raw.thinking);
        return this.count(safeJson(part.raw));
      }
    }
  }

  countMessage(message: ChatMessage): number {
    const known = this.objects.get(message);
    if (known !== undefined) return known;
    // A client re-sends its history as new objects every turn; the pipeline has hashed each
    // message by then (chain hashes), so a message counted on an earlier turn is a lookup.
    const digest = knownDigestOf(message);
    const byContent = digest === undefined ? undefined : this.messageCounts.get(digest);
    if (byContent !== undefined) {
      this.objects.set(message, byContent);
      return byContent;
    }
    let tokens = MESSAGE_OVERHEAD;
    for (const part of message.parts) tokens += this.countPart(part);
    this.objects.set(message, tokens);
    if (digest !== undefined) {
      this.messageCounts.set(digest, tokens);
    }
    return tokens;
  }

  /**
   * Tokens of one tool definition: its name, description and input schema, and every other
   * field the provider reads (a custom tool's grammar `format`, a Responses `namespace` tool's
   * nested tools, an MCP server entry), counted as their JSON. A tool kept raw (no name Herald
   * reads) is its whole JSON. Cache hints and Herald's own bookkeeping (`$…` keys) count nothing.
   */
  countTool(tool: ToolDefinition): number {
    const known = this.objects.get(tool);
    if (known !== undefined) return known;
    const raw = tool.extra?.$raw;
    const tokens = raw !== undefined
      ? this.count(safeJson(withoutHint(raw)))
      : this.count(tool.name) + this.count(tool.description ?? '') + this.count(safeJson(tool.inputSchema ?? null)) + this.count(extraJson(tool.extra));
    this.objects.set(tool, tokens);
    return tokens;
  }

  /** Tokens of a whole request: every message plus the tool definitions. */
  countRequest(request: ChatRequest): number {
    return this.countMessages(request.messages) + this.countTools(request.tools);
  }

  /**
   * The messages' tokens, remembered per array: the pipeline counts the request before and
   * after every strategy, and most strategies hand back the array they were given. The array's
   * messages are compared pointer by pointer (far cheaper than a lookup per message), so an
   * array filled after it was counted is counted again.
   */
  private countMessages(messages: readonly ChatMessage[]): number {
    const known = this.arrays.get(messages);
    if (known && sameItems(known.items, messages)) return known.tokens;
    let tokens = 0;
    for (const message of messages) {
      // A huge request counted inside a strategy or the runner stops at its deadline.
      checkDeadline();
      tokens += this.countMessage(message);
    }
    this.arrays.set(messages, { items: messages.slice(), tokens });
    return tokens;
  }

  private countTools(tools: readonly ToolDefinition[]): number {
    if (tools.length === 0) return 0;
    const known = this.arrays.get(tools);
    if (known && sameItems(known.items, tools)) return known.tokens;
    let tokens = 0;
    for (const tool of tools) tokens += this.countTool(tool);
    this.arrays.set(tools, { items: tools.slice(), tokens });
    return tokens;
  }

  /** A request's count for a given model family, scaled where the family has no public tokenizer. */
  countForModel(request: ChatRequest, model = request.model ?? ''): TokenCount {
    const tokens = this.countRequest(request);
    const family = Object.keys(FAMILY_FACTORS).find((name) => model.toLowerCase().includes(name));
    if (!family) return { tokens, estimated: false };
    return { tokens: Math.round(tokens * (FAMILY_FACTORS[family] ?? 1)), estimated: true };
  }
}

function sameItems(before: readonly object[], now: readonly object[]): boolean {
  if (before.length !== now.length) return false;
  for (let index = 0; index < now.length; index++) if (before[index] !== now[index]) return false;
  return true;
}

/** Counts evenly spaced windows of a huge text and scales by its length. */
function countSampled(text: string): number {
  const step = Math.floor((text.length - SAMPLE_WINDOW_CHARS) / (SAMPLE_WINDOWS - 1));
  let sampledTokens = 0;
  for (let window = 0; window < SAMPLE_WINDOWS; window++) {
    const start = window * step;
    sampledTokens += countBounded(text.slice(start, start + SAMPLE_WINDOW_CHARS));
  }
  return Math.round((sampledTokens * text.length) / (SAMPLE_WINDOW_CHARS * SAMPLE_WINDOWS));
}

/** o200k count with unbroken runs cut into pieces, so the time stays linear in the length. */
function countBounded(text: string): number {
  // Found in one pass: a /\S{1024,}/ search backtracks through every shorter run it meets.
  const runs = longRuns(text, LONG_RUN_CHARS);
  if (runs.length === 0) return countO200k(text);
  let tokens = 0;
  let last = 0;
  for (const [start, end] of runs) {
    if (start > last) tokens += countO200k(text.slice(last, start));
    for (let piece = start; piece < end; piece += LONG_RUN_CHARS) tokens += countO200k(text.slice(piece, Math.min(piece + LONG_RUN_CHARS, end)));
    last = end;
  }
  if (last < text.length) tokens += countO200k(text.slice(last));
  return tokens;
}

/** A tool's other fields as the provider reads them: without Herald's `$` keys, the cache hint and the plain `type: "function"`; empty when nothing is left. */
function extraJson(extra: ToolDefinition['extra']): string {
  if (extra === undefined) return '';
  const rest: Record<string, unknown> = {};
  let any = false;
  for (const [key, value] of Object.entries(extra)) {
    if (key.startsWith('$') || key === 'cache_control' || (key === 'type' && value === 'function')) continue;
    rest[key] = value;
    any = true;
  }
  return any ? safeJson(rest) : '';
}

function withoutHint(value: unknown): unknown {
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('cache_control' in value)) return value;
  const { cache_control: _hint, ...rest } = value as Record<string, unknown>;
  return rest;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

/** One shared counter for code that has no counter injected. */
export const defaultTokenCounter = new TokenCounter();

export function countTokens(text: string): number {
  return defaultTokenCounter.count(text);
}
