/**
 * tool_pruning: drops tools the conversation gives no reason to call. A tool survives when
 * its name or description shares a topic word with the conversation (generic words and
 * wording most descriptions share do not count), when it is namespaced MCP (`mcp__…`), when
 * the request forces it, or when the conversation already called it.
 *
 * Re-deciding every turn would shift the tools block (the very start of the provider's cache)
 * as the conversation grows, so the selection is decided once per session, pinned, and
 * replayed byte for byte. It is decided again only when the tool list changes, when
 * `tool_choice` forces a pruned tool, or when the model calls a pruned tool.
 */
import type { ChatRequest, ToolDefinition } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { numberOption, stringListOption } from './shared/optionReads';
import { topicWords } from './toolDescriptions/topicWords';
import { shortHash } from './signals/shortHash';

export const TOOL_PRUNING_ID = 'tool_pruning';

/** Options of tool_pruning. */
export type ToolPruningOptions = {
  /** Requests with fewer tools than this are left alone. Default 3. */
  readonly minTools: number;
  /** A word found in more than this share of the tools' names and descriptions ties no tool. Default 0.5. */
  readonly commonWordShare: number;
  /** Name prefixes never pruned (namespaced MCP tools). Default `["mcp__"]`. */
  readonly neverPrunePrefixes: readonly string[];
  /** Tool names never pruned. Default none. */
  readonly keepTools: readonly string[];
};

export const TOOL_PRUNING_DEFAULTS: ToolPruningOptions = { minTools: 3, commonWordShare: 0.5, neverPrunePrefixes: ['mcp__'], keepTools: [] };

/** The pinned selection of one session. */
export interface ToolSelectionPin {
  /** 64-bit hash of the tool list the selection was made for. */
  readonly fingerprint: string;
  readonly kept: readonly string[];
  readonly pruned: readonly string[];
}

const PIN_KEY = 'selection';

export function createToolPruning(): Strategy {
  return {
    id: TOOL_PRUNING_ID,
    defaultEnabled: true,
    kind: 'transform',
    defaults: TOOL_PRUNING_DEFAULTS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const minTools = numberOption(context.options, TOOL_PRUNING_ID, 'minTools', 0);
      const share = numberOption(context.options, TOOL_PRUNING_ID, 'commonWordShare', 0);
      const prefixes = stringListOption(context.options, TOOL_PRUNING_ID, 'neverPrunePrefixes');
      const keepNames = stringListOption(context.options, TOOL_PRUNING_ID, 'keepTools');
      if (request.tools.length === 0 || request.tools.length < minTools) {
        return { request, action: 'tools-kept', reason: `${request.tools.length} tools, fewer than ${minTools}` };
      }
      const fingerprint = shortHash(request.tools);
      const called = calledToolNames(request);
      const forced = forcedToolName(request.options.tool_choice);
      const pin = context.state.get<ToolSelectionPin>(PIN_KEY);
      let event: string;
      let selection: ToolSelectionPin;
      if (pin && pin.fingerprint === fingerprint) {
        const regret = [...called, ...(forced ? [forced] : [])].filter((name) => pin.pruned.includes(name));
        if (regret.length === 0) {
          selection = pin;
          event = 'replayed';
        } else {
          selection = decide(request, fingerprint, share, prefixes, keepNames, called, forced);
          event = forced && pin.pruned.includes(forced) ? 'tool_choice forces a pruned tool' : 'the model called a pruned tool';
        }
      } else {
        selection = decide(request, fingerprint, share, prefixes, keepNames, called, forced);
        event = pin ? 'the tool list changed' : 'first request of the session';
      }
      if (selection !== pin) context.state.set(PIN_KEY, selection);
      const kept = new Set(selection.kept);
      const tools = request.tools.filter((tool) => kept.has(tool.name) || !isPrunable(tool));
      const details = { tools: request.tools.length, kept: tools.length, pruned: request.tools.length - tools.length, replayed: event === 'replayed' };
      if (tools.length === request.tools.length) return { request, action: 'tools-kept', reason: `every tool ties to the conversation (${event})`, details };
      return {
        request: { ...request, tools },
        action: event === 'replayed' ? 'tool-selection-replayed' : 'tools-pruned',
        reason: `kept ${tools.length} of ${request.tools.length} tools (${event})`,
        details,
      };
    },
  };
}

function decide(
  request: ChatRequest,
  fingerprint: string,
  share: number,
  prefixes: readonly string[],
  keepNames: readonly string[],
  called: ReadonlySet<string>,
  forced: string | undefined,
): ToolSelectionPin {
  const toolWords = request.tools.map((tool) => topicWords(`${tool.name} ${tool.description ?? ''}`));
  // Wording most descriptions share ("travel assistant") cannot tie a tool to anything in particular.
  const frequency = new Map<string, number>();
  for (const words of toolWords) for (const word of words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const commonAbove = Math.max(1, share * request.tools.length);
  const conversation = topicWords(conversationText(request));
  const kept: string[] = [];
  const pruned: string[] = [];
  request.tools.forEach((tool, index) => {
    const protectedTool =
      !isPrunable(tool) || prefixes.some((prefix) => tool.name.startsWith(prefix)) || keepNames.includes(tool.name) || called.has(tool.name) || tool.name === forced;
    const tied = [...toolWords[index]!].some((word) => (frequency.get(word) ?? 0) <= commonAbove && conversation.has(word));
    (protectedTool || tied ? kept : pruned).push(tool.name);
  });
  // Taking every tool away changes what kind of request this is; leave such a request whole.
  if (kept.length === 0) return { fingerprint, kept: pruned, pruned: [] };
  return { fingerprint, kept, pruned };
}

/**
 * Tools without a name (kept raw), provider server tools (typed, e.g. `web_search_20250305`)
 * and a tool carrying the client's own cache breakpoint are never pruned.
 */
function isPrunable(tool: ToolDefinition): boolean {
  const type = tool.extra?.type;
  return tool.name.length > 0 && tool.extra?.$raw === undefined && tool.extra?.cache_control === undefined && (type === undefined || type === 'function' || type === 'custom');
}

/** What the conversation is about: every message's own text and the names of the tools it called. */
function conversationText(request: ChatRequest): string {
  const pieces: string[] = [];
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part.type === 'text') pieces.push(part.text);
      else if (part.type === 'tool_call') pieces.push(part.name);
    }
  }
  return pieces.join('\n');
}

function calledToolNames(request: ChatRequest): Set<string> {
  const names = new Set<string>();
  for (const message of request.messages) for (const part of message.parts) if (part.type === 'tool_call') names.add(part.name);
  return names;
}

/** The tool `tool_choice` forces: OpenAI `{type:"function", function:{name}}`, Anthropic `{type:"tool", name}`. */
export function forcedToolName(toolChoice: unknown): string | undefined {
  if (typeof toolChoice !== 'object' || toolChoice === null) return undefined;
  const choice = toolChoice as Record<string, unknown>;
  if (choice.type === 'tool' && typeof choice.name === 'string') return choice.name;
  const fn = choice.function;
  if (choice.type === 'function' && typeof fn === 'object' && fn !== null && typeof (fn as Record<string, unknown>).name === 'string') {
    return (fn as Record<string, unknown>).name as string;
  }
  return undefined;
}
