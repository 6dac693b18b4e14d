/**
 * Token counting with a real BPE tokenizer (OpenAI's o200k_base, via gpt-tokenizer).
 *
 * Claude, Gemini and other families publish no tokenizer; for them the o200k count is
 * scaled by a documented factor (see {@link FAMILY_FACTORS}) and the result is marked as
 * an estimate. Counts are memoized per text, so re-counting an unchanged request is cheap.
 */
import { countTokens as countO200k } from 'gpt-tokenizer/encoding/o200k_base';
import type { ChatMessage, ChatRequest, Part } from '../chat/types';

/** Special-token strings inside user text are counted as text, never rejected. */
const COUNT_OPTIONS = { disallowedSpecial: new Set<string>() };

/**
 * Families without a public tokenizer: the o200k count times this factor. Anthropic's
 * tokenizer produces more tokens than o200k for the same English and code (about 1.2×
 * on mixed code and prose is a commonly published figure); Gemini's SentencePiece about 1.05×.
 */
export const FAMILY_FACTORS: Readonly<Record<string, number>> = { claude: 1.2, gemini: 1.05 };

/** Per-message overhead OpenAI documents for chat formatting (role and separators). */
const MESSAGE_OVERHEAD = 3;
/** Above this size a text is counted in chunks so one giant string never blocks long. */
const CHUNK_CHARS = 1_000_000;

export interface TokenCount {
  readonly tokens: number;
  /** True when the family has no public tokenizer and the count is scaled from o200k. */
  readonly estimated: boolean;
}

export class TokenCounter {
  private readonly memo = new Map<string, number>();

  /** @param maxEntries how many distinct texts to remember (least recently used go first). */
  constructor(private readonly maxEntries = 20_000) {}

  /** Tokens of one text with o200k_base. */
  count(text: string): number {
    if (text.length === 0) return 0;
    const known = this.memo.get(text);
    if (known !== undefined) {
      this.memo.delete(text);
      this.memo.set(text, known);
      return known;
    }
    let tokens = 0;
    if (text.length <= CHUNK_CHARS) tokens = countO200k(text, COUNT_OPTIONS);
    else for (let start = 0; start < text.length; start += CHUNK_CHARS) tokens += countO200k(text.slice(start, start + CHUNK_CHARS), COUNT_OPTIONS);
    this.memo.set(text, tokens);
    if (this.memo.size > this.maxEntries) this.memo.delete(this.memo.keys().next().value as string);
    return tokens;
  }

  /** Tokens of one part: text, a tool call's name and arguments, a tool result's text; data parts a fixed cost. */
  countPart(part: Part): number {
    switch (part.type) {
      case 'text':
        return this.count(part.text);
      case 'tool_call':
        return this.count(part.name) + this.count(typeof part.arguments === 'string' ? part.arguments : JSON.stringify(part.arguments ?? null));
      case 'tool_result':
        return part.content.reduce((sum, inner) => sum + this.countPart(inner), 0);
      case 'data':
        // A typical image costs about 765 tokens at OpenAI's high detail for 512×512 tiles; a flat figure keeps counts deterministic.
        return 765;
      case 'opaque':
        return this.count(safeJson(part.raw));
    }
  }

  countMessage(message: ChatMessage): number {
    return MESSAGE_OVERHEAD + message.parts.reduce((sum, part) => sum + this.countPart(part), 0);
  }

  /** Tokens of a whole request: every message plus the tool definitions. */
  countRequest(request: ChatRequest): number {
    let total = 0;
    for (const message of request.messages) total += this.countMessage(message);
    for (const tool of request.tools) total += this.count(tool.name) + this.count(tool.description ?? '') + this.count(safeJson(tool.inputSchema ?? null));
    return total;
  }

  /** A request's count for a given model family, scaled where the family has no public tokenizer. */
  countForModel(request: ChatRequest, model = request.model ?? ''): TokenCount {
    const tokens = this.countRequest(request);
    const family = Object.keys(FAMILY_FACTORS).find((name) => model.toLowerCase().includes(name));
    if (!family) return { tokens, estimated: false };
    return { tokens: Math.round(tokens * (FAMILY_FACTORS[family] ?? 1)), estimated: true };
  }
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
