/**
 * cache_optimizer (runs last): keeps the start of the request byte-identical from turn to
 * turn so the provider's prompt cache keeps hitting.
 *
 * - Tools are written in one stable order (by name), whatever order the client sent.
 * - Anthropic requests get `cache_control` breakpoints: the last tool, the last system block
 *   and the last block of the request (which writes the whole prompt for the next turn to
 *   read; Anthropic looks back from it for the previous turn's entry). That is three of the
 *   four breakpoints Anthropic allows; the breakpoint on the last message moves each turn,
 *   which Anthropic documents as the incremental-caching pattern and which does not break
 *   the earlier prefix.
 * - When the client already places `cache_control` anywhere, it manages caching itself: the
 *   tools keep its order and its breakpoints stay where it put them. Where it leaves one of the
 *   four free (Claude Code uses three: two on the system prompt, one on the last message), Herald
 *   puts one on the last block before the fresh input: the fresh input is where Herald's next
 *   rewrite starts (it is decided again when it becomes history), so that rewrite reads
 *   everything before it from the cache instead of writing back from the last entry Anthropic's
 *   20-block lookback finds. The breakpoint moves with the history: the one an earlier request
 *   got (replayed with its decided message) is taken off again.
 *
 * Lossless: it reorders tools and adds cache hints; it never changes content.
 */
import type { z } from 'zod';
import { hasCacheHints, stripCacheHints } from '../chat/cacheHints';
import type { ChatMessage, ChatRequest, Part, ToolDefinition } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { booleanOption, numberOption } from './shared/optionReads';
import { optionDefaults } from '../pipeline/optionSchema';
import { CACHE_OPTIMIZER_OPTIONS } from './options/cacheOptimizerOptions';

export const CACHE_OPTIMIZER_ID = 'cache_optimizer';

/** Options of cache_optimizer, as its schema in `options/` declares them (type, default, bounds, description). */
export type CacheOptimizerOptions = Readonly<z.output<typeof CACHE_OPTIMIZER_OPTIONS>>;

export const CACHE_OPTIMIZER_DEFAULTS: CacheOptimizerOptions = optionDefaults(CACHE_OPTIMIZER_OPTIONS);

/** Anthropic's limit on breakpoints in one request. */
export const MAX_BREAKPOINTS = 4;
const EPHEMERAL = { type: 'ephemeral' } as const;

export function createCacheOptimizer(): Strategy {
  return {
    id: CACHE_OPTIMIZER_ID,
    defaultEnabled: true,
    kind: 'transform',
    // Only the last message's last block gets a cache hint; its content is never changed.
    touchesFresh: true,
    annotatesTail: true,
    defaults: CACHE_OPTIMIZER_DEFAULTS,
    optionSchema: CACHE_OPTIMIZER_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const sortTools = booleanOption(context.options, CACHE_OPTIMIZER_ID, 'sortTools');
      const inject = booleanOption(context.options, CACHE_OPTIMIZER_ID, 'injectBreakpoints');
      const minPrefixTokens = numberOption(context.options, CACHE_OPTIMIZER_ID, 'minPrefixTokens', 0);
      // Count on the request as the client sent it: history replayed from earlier turns carries our own hints.
      const existing = countBreakpoints(context.original);
      if (existing > 0) {
        const withHistoryBreakpoint = inject && request.format === 'anthropic' ? historyBreakpoint(request, context, existing, minPrefixTokens) : undefined;
        if (withHistoryBreakpoint === undefined) {
          return { request, action: 'client-caching-respected', reason: `the client placed ${existing} cache breakpoints itself`, details: { clientBreakpoints: existing } };
        }
        return {
          request: withHistoryBreakpoint,
          action: 'history-breakpoint-added',
          reason: `the client placed ${existing} of ${MAX_BREAKPOINTS} cache breakpoints; one more ends the history before the fresh input, where Herald's next rewrite starts, so that rewrite reads everything before it`,
          details: { clientBreakpoints: existing, breakpoints: 1 },
        };
      }
      let tools = request.tools;
      let reordered = false;
      if (sortTools) {
        tools = stableOrder(request.tools);
        reordered = tools.some((tool, index) => tool !== request.tools[index]);
      }
      let messages = request.messages;
      let breakpoints = 0;
      if (inject && request.format === 'anthropic' && context.tokens.countRequest(request) >= minPrefixTokens) {
        if (tools.length > 0 && tools[tools.length - 1]!.extra?.$raw === undefined) {
          const last = tools[tools.length - 1]!;
          tools = [...tools.slice(0, -1), { ...last, extra: { ...(last.extra ?? {}), cache_control: EPHEMERAL } }];
          breakpoints++;
        }
        const marked = [...messages];
        if (marked[0]?.role === 'system') {
          // A system prompt decided on an earlier turn already carries the hint it got then.
          const system = context.frozenCount > 0 ? undefined : markLastBlock(marked[0]);
          if (system) marked[0] = system;
          if (system || countBreakpoints({ ...request, tools: [], messages: [marked[0]] }) > 0) breakpoints++;
        }
        const lastIndex = marked.length - 1;
        if (lastIndex > 0 || (lastIndex === 0 && marked[0]?.role !== 'system')) {
          const tail = markLastBlock(marked[lastIndex]!);
          if (tail) {
            marked[lastIndex] = tail;
            breakpoints++;
          }
        }
        messages = marked;
      }
      if (!reordered && breakpoints === 0) return { request, action: 'prefix-already-stable', reason: 'tools already in stable order; no breakpoints to add' };
      return {
        request: { ...request, tools, messages },
        action: 'prefix-stabilized',
        reason: [reordered ? 'tools put in stable order' : '', breakpoints > 0 ? `${breakpoints} cache breakpoints added` : ''].filter(Boolean).join('; '),
        details: { toolsReordered: reordered, breakpoints },
      };
    },
  };
}

/**
 * The request with one breakpoint on the last block before the fresh input, and none of the
 * ones Herald put on earlier history (the client's own stay); undefined when there is no room
 * (the client uses all four), no history, the client marks that message itself, or the prefix
 * is too small to be cached.
 */
function historyBreakpoint(request: ChatRequest, context: StrategyContext, clientBreakpoints: number, minPrefixTokens: number): ChatRequest | undefined {
  if (clientBreakpoints >= MAX_BREAKPOINTS) return undefined;
  const end = context.freshStart - 1;
  if (end < 1 || end >= request.messages.length - 1) return undefined;
  // Herald's own hints on messages the client left bare: the memo replays them with the message.
  const messages = request.messages.map((message, index) => {
    const original = context.original.messages[index];
    return original && !hasCacheHints(original) && hasCacheHints(message) ? stripCacheHints(message).bare : message;
  });
  if (hasCacheHints(context.original.messages[end]!)) return undefined;
  const marked = markLastBlock(messages[end]!);
  if (!marked) return undefined;
  const prefix = context.tokens.countRequest({ ...request, messages: request.messages.slice(0, end + 1) });
  if (prefix < minPrefixTokens) return undefined;
  messages[end] = marked;
  return { ...request, messages };
}

/** Tools sorted by name; ties keep the client's order. */
function stableOrder(tools: readonly ToolDefinition[]): readonly ToolDefinition[] {
  return tools.map((tool, index) => ({ tool, index })).sort((a, b) => (a.tool.name < b.tool.name ? -1 : a.tool.name > b.tool.name ? 1 : a.index - b.index)).map((entry) => entry.tool);
}

/** The message with `cache_control` on its last block that can carry one, or undefined when none can. */
function markLastBlock(message: ChatMessage): ChatMessage | undefined {
  for (let index = message.parts.length - 1; index >= 0; index--) {
    const part = message.parts[index]!;
    const marked = markPart(part);
    if (!marked) continue;
    const parts = [...message.parts];
    parts[index] = marked;
    // A string content has no block to carry the hint: write it as one text block (same text).
    return { ...message, parts, contentShape: message.contentShape === 'string' ? 'parts' : message.contentShape };
  }
  return undefined;
}

function markPart(part: Part): Part | undefined {
  switch (part.type) {
    case 'text':
      // Anthropic refuses a cache hint on an empty text block.
      return part.text.length > 0 ? { ...part, extra: { ...(part.extra ?? {}), cache_control: EPHEMERAL } } : undefined;
    case 'tool_call':
    case 'tool_result':
    case 'data':
      return { ...part, extra: { ...(part.extra ?? {}), cache_control: EPHEMERAL } };
    default:
      // Thinking and other opaque blocks cannot carry a breakpoint.
      return undefined;
  }
}

/** Breakpoints already in the request: on tools, message blocks, tool-result content, or top level. */
export function countBreakpoints(request: ChatRequest): number {
  let count = 0;
  const has = (extra: Record<string, unknown> | undefined): boolean => extra !== undefined && extra.cache_control !== undefined;
  for (const tool of request.tools) if (has(tool.extra) || hasRawCacheControl(tool.extra?.$raw)) count++;
  for (const message of request.messages) {
    if (has(message.extra)) count++;
    for (const part of message.parts) {
      if (part.type === 'opaque') {
        if (hasRawCacheControl(part.raw)) count++;
        continue;
      }
      if (has(part.extra)) count++;
      if (part.type === 'tool_result') for (const inner of part.content) if (inner.type === 'opaque' ? hasRawCacheControl(inner.raw) : has(inner.extra)) count++;
    }
  }
  if (request.options.cache_control !== undefined) count++;
  return count;
}

function hasRawCacheControl(raw: unknown): boolean {
  return typeof raw === 'object' && raw !== null && 'cache_control' in raw;
}
