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
 * - When the client already places `cache_control` anywhere, it manages caching itself and
 *   this strategy changes nothing at all.
 *
 * Lossless: it reorders tools and adds cache hints; it never changes content.
 */
import type { z } from 'zod';
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
        return { request, action: 'client-caching-respected', reason: `the client placed ${existing} cache breakpoints itself`, details: { clientBreakpoints: existing } };
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
