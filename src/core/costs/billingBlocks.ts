/**
 * A request as the blocks its provider builds the prompt from, for the cache model in
 * `cacheBilling.ts`: from a wire body (what a provider receives) or from the neutral model.
 *
 * Order. Anthropic builds tools, then system, then messages ("Prompt caching": "tools, system,
 * and messages, in that order"). OpenAI publishes no rendering of its hosted models; the one it
 * publishes (the harmony format of gpt-oss, which "mimics the Responses API") puts the
 * instructions in the developer message ahead of the function tools, then the conversation, so
 * OpenAI-shaped requests are read as leading system/developer instructions, tools, the rest.
 *
 * Blocks. A tool definition, a system block, a message's content block (a string content is one
 * block), a Responses input item: the units Anthropic counts its 20-block lookback in and the
 * points where a prefix can end. Keys are the block's JSON without cache hints, so a moved
 * breakpoint does not change a block's identity.
 *
 * Tokens, from a wire body: a tool as its JSON (schemas are rendered as JSON-like text), a
 * content block as the text it carries (every string in it but its `type`, signatures and
 * encrypted reasoning), plus {@link BLOCK_OVERHEAD_TOKENS} for the framing each block gets. A
 * model of the provider's count on one tokenizer, the same for every request it compares; from
 * the neutral model the blocks carry the TokenCounter's own counts, so they sum to
 * `countRequest`.
 */
import { isCacheBreakpointPart } from '../chat/cacheHints';
import type { ChatMessage, ChatRequest, Part, ToolDefinition } from '../chat/types';
import type { TokenCounter } from '../tokens/tokenCounter';
import type { BillingBlock } from './cacheBilling';

/** Framing tokens a content block is counted with beyond its text (role and separators). */
export const BLOCK_OVERHEAD_TOKENS = 3;

/** Counts the tokens of one text. */
export type CountText = (text: string) => number;

type JsonRecord = Record<string, unknown>;

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Keys whose strings are not text the model reads. */
const UNCOUNTED_KEYS = new Set(['type', 'cache_control', 'signature', 'encrypted_content']);

/** Tokens of the text a wire block carries. */
function textTokens(value: unknown, count: CountText): number {
  if (typeof value === 'string') return count(value);
  if (Array.isArray(value)) return value.reduce((sum: number, item) => sum + textTokens(item, count), 0);
  if (!isRecord(value)) return 0;
  let sum = 0;
  for (const [key, inner] of Object.entries(value)) if (!UNCOUNTED_KEYS.has(key)) sum += textTokens(inner, count);
  return sum;
}

function withoutCacheControl(value: unknown): unknown {
  if (!isRecord(value) || !('cache_control' in value)) return value;
  const { cache_control: _hint, ...rest } = value;
  return rest;
}

function hasCacheControl(value: unknown): boolean {
  return isRecord(value) && isRecord(value.cache_control);
}

function toolBlock(tool: unknown, count: CountText): BillingBlock {
  const json = JSON.stringify(withoutCacheControl(tool));
  return { key: `tool:${json}`, tokens: count(json), ...(hasCacheControl(tool) ? { breakpoint: true } : {}) };
}

function contentBlock(prefix: string, block: unknown, count: CountText): BillingBlock {
  return { key: `${prefix}:${JSON.stringify(withoutCacheControl(block))}`, tokens: textTokens(block, count) + BLOCK_OVERHEAD_TOKENS, ...(hasCacheControl(block) ? { breakpoint: true } : {}) };
}

/** An Anthropic Messages body as its blocks: tools, system, messages; breakpoints where `cache_control` stands. */
export function anthropicBodyBlocks(body: unknown, count: CountText): BillingBlock[] {
  if (!isRecord(body)) return [];
  const blocks: BillingBlock[] = [];
  if (Array.isArray(body.tools)) for (const tool of body.tools) blocks.push(toolBlock(tool, count));
  if (typeof body.system === 'string') blocks.push(contentBlock('system', body.system, count));
  else if (Array.isArray(body.system)) for (const block of body.system) blocks.push(contentBlock('system', block, count));
  if (Array.isArray(body.messages)) {
    for (const message of body.messages) {
      if (!isRecord(message)) continue;
      const role = typeof message.role === 'string' ? message.role : 'user';
      if (Array.isArray(message.content)) for (const block of message.content) blocks.push(contentBlock(role, block, count));
      else blocks.push(contentBlock(role, message.content ?? '', count));
    }
  }
  // Automatic caching: a top-level cache_control puts the breakpoint on the last block.
  if (hasCacheControl(body) && blocks.length > 0) blocks[blocks.length - 1] = { ...blocks[blocks.length - 1], breakpoint: true };
  return blocks;
}

function isInstruction(message: unknown): boolean {
  return isRecord(message) && (message.role === 'system' || message.role === 'developer');
}

/** An OpenAI Chat Completions body as its blocks: leading system/developer messages, tools, the other messages. */
export function chatCompletionsBodyBlocks(body: unknown, count: CountText): BillingBlock[] {
  if (!isRecord(body)) return [];
  const messages = Array.isArray(body.messages) ? body.messages : [];
  let lead = 0;
  while (lead < messages.length && isInstruction(messages[lead])) lead++;
  const blocks: BillingBlock[] = messages.slice(0, lead).map((message) => contentBlock('message', message, count));
  if (Array.isArray(body.tools)) for (const tool of body.tools) blocks.push(toolBlock(tool, count));
  for (const message of messages.slice(lead)) blocks.push(contentBlock('message', message, count));
  return blocks;
}

/** An OpenAI Responses body as its blocks: instructions, tools (every form: function, custom, namespace, MCP), input items. */
export function responsesBodyBlocks(body: unknown, count: CountText): BillingBlock[] {
  if (!isRecord(body)) return [];
  const input = typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : Array.isArray(body.input) ? body.input : [];
  let lead = 0;
  while (lead < input.length && isInstruction(input[lead])) lead++;
  const blocks: BillingBlock[] = [];
  if (typeof body.instructions === 'string' && body.instructions.length > 0) blocks.push(contentBlock('instructions', body.instructions, count));
  for (const item of input.slice(0, lead)) blocks.push(contentBlock('item', item, count));
  if (Array.isArray(body.tools)) for (const tool of body.tools) blocks.push(toolBlock(tool, count));
  for (const item of input.slice(lead)) blocks.push(contentBlock('item', item, count));
  return blocks;
}

/** The wire APIs Herald speaks to providers. */
export type WireApi = 'anthropic' | 'chat' | 'responses';

/** A wire body as its blocks, by API. */
export function wireBodyBlocks(api: WireApi, body: unknown, count: CountText): BillingBlock[] {
  switch (api) {
    case 'anthropic':
      return anthropicBodyBlocks(body, count);
    case 'chat':
      return chatCompletionsBodyBlocks(body, count);
    case 'responses':
      return responsesBodyBlocks(body, count);
  }
}

const MESSAGE_HINT_KEYS = ['cache_control', 'copilot_cache_control'];

function partHasHint(part: Part): boolean {
  if (part.type === 'opaque') return isRecord(part.raw) && isRecord(part.raw.cache_control);
  if (part.extra && 'cache_control' in part.extra) return true;
  if (part.type === 'tool_result') return part.content.some((inner) => inner.type !== 'opaque' && inner.extra !== undefined && 'cache_control' in inner.extra);
  return false;
}

/**
 * A neutral request as its blocks, counted by `tokens` (they sum to `tokens.countRequest`):
 * tools then messages for Anthropic (its system messages lead the messages), instructions,
 * tools, the rest for the other formats. A breakpoint stands on a part that carries
 * `cache_control`, on the part before a Copilot breakpoint data part, on a message's last part
 * when the message carries the hint, and on a tool that carries it.
 */
export function requestBlocks(request: ChatRequest, tokens: TokenCounter): BillingBlock[] {
  const toolBlocks = request.tools.map((tool) => neutralToolBlock(tool, tokens));
  const messageBlocks = request.messages.map((message) => neutralMessageBlocks(message, tokens));
  if (request.format === 'anthropic') return [...toolBlocks, ...messageBlocks.flat()];
  let lead = 0;
  while (lead < request.messages.length && request.messages[lead].role === 'system') lead++;
  return [...messageBlocks.slice(0, lead).flat(), ...toolBlocks, ...messageBlocks.slice(lead).flat()];
}

function neutralToolBlock(tool: ToolDefinition, tokens: TokenCounter): BillingBlock {
  const hinted = tool.extra !== undefined && 'cache_control' in tool.extra;
  const bare = hinted ? withoutExtraHint(tool) : tool;
  return { key: `tool:${JSON.stringify(bare)}`, tokens: tokens.countTool(tool), ...(hinted ? { breakpoint: true } : {}) };
}

function neutralMessageBlocks(message: ChatMessage, tokens: TokenCounter): BillingBlock[] {
  const overhead = tokens.countMessage(message) - message.parts.reduce((sum, part) => sum + tokens.countPart(part), 0);
  const blocks: { key: string; tokens: number; breakpoint: boolean }[] = [];
  for (const part of message.parts) {
    if (isCacheBreakpointPart(part)) {
      if (blocks.length > 0) blocks[blocks.length - 1].breakpoint = true;
      continue;
    }
    blocks.push({ key: `${message.role}:${JSON.stringify(stripPartHints(part))}`, tokens: tokens.countPart(part), breakpoint: partHasHint(part) });
  }
  if (blocks.length === 0) blocks.push({ key: `${message.role}:`, tokens: 0, breakpoint: false });
  blocks[0].tokens += overhead;
  if (MESSAGE_HINT_KEYS.some((key) => message.extra !== undefined && key in message.extra)) blocks[blocks.length - 1].breakpoint = true;
  return blocks.map((block) => (block.breakpoint ? block : { key: block.key, tokens: block.tokens }));
}

function stripPartHints(part: Part): unknown {
  if (part.type === 'opaque') return withoutCacheControl(part.raw);
  const bare = part.extra && 'cache_control' in part.extra ? withoutExtraHint(part) : part;
  if (bare.type !== 'tool_result') return bare;
  return { ...bare, content: bare.content.filter((inner) => !isCacheBreakpointPart(inner)).map((inner) => (inner.type !== 'opaque' && inner.extra && 'cache_control' in inner.extra ? withoutExtraHint(inner) : inner)) };
}

/** A part without the hint in its `extra`, and without `extra` when nothing else was in it (as the client would send it unmarked). */
function withoutExtraHint<T extends { readonly extra?: Record<string, unknown> }>(part: T): T {
  const { cache_control: _hint, ...rest } = part.extra ?? {};
  const { extra: _extra, ...bare } = part;
  return (Object.keys(rest).length > 0 ? { ...bare, extra: rest } : bare) as T;
}
