/**
 * tool_catalog: the tools the conversation uses or is plainly about keep their full schema;
 * every other tool is listed on one line of a catalog (name, parameters, purpose) carried by
 * one Herald tool, `herald_load_tools`, that loads full schemas on demand. No tool is ever
 * unreachable: a catalogued tool the model calls directly is the caller's own tool and goes
 * to the caller; a load call is answered by Herald's request flow inside the turn, with the
 * schemas added, and the caller never sees it. (It replaces tool_pruning, which removed tools
 * outright and, protecting only Claude Code's `mcp__` names, removed MCP tools that Copilot
 * names `mcp_<server>_<tool>` and that the model then called.)
 *
 * A tool keeps its full schema when the request forces it (`tool_choice`), when the
 * conversation called it or names it (Copilot's system prompt names the tools it relies on),
 * when a distinctive word of its name or description occurs in what the user or the assistant
 * wrote (an MCP tool's server label is not such a word: it says whose the tool is, not what it
 * does), when the options keep it, when it cannot be moved (provider server tools, raw entries,
 * a tool carrying the client's own cache breakpoint), or when its schema is hardly larger than
 * its catalog line.
 *
 * Decided once per session and replayed byte for byte. The full set only grows: a catalogued
 * tool the model called, that `tool_choice` forces, or that the flow loaded in the turn
 * (`recordLoadedTools`) joins it for good. Every change of the tools block makes the provider
 * write the whole prompt to its cache again, so the catalog is offered only where it pays: it
 * must save at least `minSavedTokens` on every request, and a target billed per request
 * (Copilot-hosted models: each extra round is another premium request) gets it only when the
 * full tools block takes at least `copilotHostedWindowShare` of the model's input window.
 * Requests Herald's flow does not forward (no target kind: the CLI's `optimize`) never get a
 * catalog, since nobody would answer its tool.
 */
import type { z } from 'zod';
import type { ChatRequest, ToolDefinition } from '../chat/types';
import type { TargetKind, Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import type { SessionState } from '../pipeline/sessionState';
import type { TokenCounter } from '../tokens/tokenCounter';
import { CATALOG_TOOL_NAME, catalogLine, catalogTool, type CatalogEntry } from './catalog/catalogTool';
import { mcpNamesOf, type McpToolName } from './catalog/mcpNames';
import { isNamespaceTool, namespaceFunctions, namespaceOwners, toolDescription } from './catalog/namespaceTools';
import { shortHash } from './signals/shortHash';
import { optionDefaults } from '../pipeline/optionSchema';
import { TOOL_CATALOG_OPTIONS } from './options/toolCatalogOptions';
import { booleanOption, numberOption, stringListOption } from './shared/optionReads';
import { topicWords, wordsOf, stem } from './toolDescriptions/topicWords';
import { untiedSections, withSectionsElided } from './catalog/descriptionSections';
import type { Stash } from '../stash/stash';

export const TOOL_CATALOG_ID = 'tool_catalog';

/** Options of tool_catalog, as its schema in `options/` declares them (type, default, bounds, description). */
export type ToolCatalogOptions = Readonly<z.output<typeof TOOL_CATALOG_OPTIONS>>;

export const TOOL_CATALOG_DEFAULTS: ToolCatalogOptions = optionDefaults(TOOL_CATALOG_OPTIONS);

/** The pinned selection of one session. */
export interface ToolCatalogPin {
  /** 64-bit hash of the tool list (order aside) the selection was made for. */
  readonly fingerprint: string;
  /** The target kind it was made for. */
  readonly targetKind: TargetKind;
  /** Tools offered with their full schema, in the request's order. */
  readonly full: readonly string[];
  /** Tools listed in the catalog only (empty when no catalog is offered). */
  readonly catalogued: readonly string[];
  /** Catalogued tools that joined the full set since the decision (called, forced or loaded). */
  readonly grown: number;
  /** How many tools kept their full schema at the decision, by reason (`named: 10, tied: 3`). */
  readonly keptBecause: string;
  /** Headings of the description sections stashed per full tool (`descriptionSections.ts`); absent when none. */
  readonly sections?: Readonly<Record<string, readonly string[]>>;
}

const PIN_KEY = 'selection';

/** What the catalog buys and costs on each kind of target, for the decision's reason. */
const KIND_NOTES: Readonly<Record<TargetKind, string>> = {
  endpoint: 'target billed by the token: a load costs one round and one cache write',
  'copilot-hosted': 'Copilot-hosted target: the tools fill enough of the window to be worth a premium request per load',
};

/** Why a tool keeps its full schema at the decision. */
type KeepReason = 'unmovable' | 'forced' | 'called' | 'named' | 'workspace' | 'described' | 'tied' | 'kept' | 'small' | 'earlier';

/** The same tool list renders the same way every turn: the block and its counts are kept, not rebuilt (the warm path is a lookup). */
class RenderMemo {
  private readonly entries = new Map<string, unknown>();
  constructor(private readonly maxEntries = 256) {}
  get<T>(key: string, make: () => T): T {
    if (this.entries.has(key)) return this.entries.get(key) as T;
    const value = make();
    this.entries.set(key, value);
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value as string);
    return value;
  }
}

export function createToolCatalog(): Strategy {
  const memo = new RenderMemo();
  return {
    id: TOOL_CATALOG_ID,
    defaultEnabled: true,
    kind: 'transform',
    defaults: TOOL_CATALOG_DEFAULTS,
    optionSchema: TOOL_CATALOG_OPTIONS,
    apply(request: ChatRequest, context: StrategyContext): StrategyResult {
      const options = readOptions(context.options);
      if (request.tools.length === 0) return { request, action: 'tools-kept', reason: 'no tools' };
      const kind = context.targetKind;
      if (!kind) return { request, action: 'tools-kept', reason: `no Herald flow forwards this request, so nobody would answer ${CATALOG_TOOL_NAME}` };
      if (request.tools.some((tool) => tool.name === CATALOG_TOOL_NAME)) return { request, action: 'tools-kept', reason: `the client already offers a tool named ${CATALOG_TOOL_NAME}` };
      const fingerprint = toolListFingerprint(request.tools);
      const fullTokens = memo.get(`tokens\u0000${fingerprint}`, () => request.tools.reduce((sum, tool) => sum + toolTokens(tool, context.tokens), 0));
      const refusal = targetRefusal(kind, options, fullTokens, context.windowTokens);
      if (refusal) return { request, action: 'tools-kept', reason: refusal, details: { targetKind: kind, toolTokens: fullTokens } };

      // What the conversation did and said is read from the request as it arrived: earlier strategies may have trimmed its words.
      const conversation = context.original;
      const growth = [...calledToolNames(conversation, request.tools), ...forcedToolNames(request.options.tool_choice, request.tools)];
      const pin = context.state.get<ToolCatalogPin>(PIN_KEY);
      let selection: ToolCatalogPin;
      let event: string;
      if (pin && pin.fingerprint === fingerprint && pin.targetKind === kind) {
        const joining = growth.filter((name, index) => pin.catalogued.includes(name) && growth.indexOf(name) === index);
        selection = joining.length === 0 ? pin : grow(pin, request.tools, joining);
        event = joining.length === 0 ? 'replayed' : `${joining.length} catalogued tool(s) called or forced joined the full set`;
      } else {
        // A changed tool list or target is decided again; what was full before stays full (the set only grows).
        selection = decide(request, conversation, fingerprint, kind, options, context.tokens, new Set(pin?.full ?? []));
        event = pin ? (pin.targetKind !== kind ? 'the target kind changed' : 'the tool list changed') : 'first request of the session';
      }
      if (selection !== pin) context.state.set(PIN_KEY, selection);
      return render(request, selection, event, options, context.tokens, fullTokens, memo, fingerprint, context.stash);
    },
  };
}

/**
 * Adds tools the flow loaded inside a turn to the session's full set, so the next request
 * carries the same tools block the load round did. Returns the names that joined.
 */
export function recordLoadedTools(state: SessionState, names: readonly string[]): string[] {
  const pin = state.get<ToolCatalogPin>(PIN_KEY);
  if (!pin) return [];
  const joining = names.filter((name, index) => pin.catalogued.includes(name) && names.indexOf(name) === index);
  if (joining.length === 0) return [];
  state.set(PIN_KEY, growByName(pin, joining));
  return joining;
}

/** Why the catalog is not offered to this target, or undefined when it may be. */
function targetRefusal(kind: TargetKind, options: ToolCatalogOptions, fullTokens: number, windowTokens: number | undefined): string | undefined {
  if (kind === 'copilot-hosted') {
    if (options.copilotHostedWindowShare > 1) return 'Copilot-hosted target: every extra round is one more premium request, and the catalog is off for these targets';
    if (windowTokens === undefined || windowTokens <= 0) return 'Copilot-hosted target with an unknown window: the catalog only buys window there, and an extra round is a premium request';
    const share = fullTokens / windowTokens;
    if (share < options.copilotHostedWindowShare) {
      return `Copilot-hosted target: tokens are not billed there and an extra round is one more premium request; the tools fill ${percent(share)} of the window, under the ${percent(options.copilotHostedWindowShare)} that would be worth it`;
    }
    return undefined;
  }
  return options.endpoints ? undefined : 'target billed by the token: the catalog is off for endpoint and gateway targets (option endpoints)';
}

function decide(request: ChatRequest, conversation: ChatRequest, fingerprint: string, kind: TargetKind, options: ToolCatalogOptions, tokens: TokenCounter, earlier: ReadonlySet<string>): ToolCatalogPin {
  const reasons = keepReasons(request.tools, conversation, options, tokens, earlier);
  const full: string[] = [];
  const catalogued: string[] = [];
  for (const tool of request.tools) (reasons.has(tool) ? full : catalogued).push(tool.name);
  const counts = new Map<KeepReason, number>();
  for (const reason of reasons.values()) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  const keptBecause = [...counts].map(([reason, count]) => `${reason}: ${count}`).join(', ');
  const saved = savedTokens(request.tools, new Set(catalogued), options.maxLineChars, tokens);
  // A catalog that saves little cannot pay for the cache write one load would cost.
  const offered = catalogued.length > 0 && saved >= options.minSavedTokens;
  const kept = offered ? full : request.tools.map((tool) => tool.name);
  const sections = sectionsOf(request.tools.filter((tool) => kept.includes(tool.name) && isMovable(tool)), conversation, options.sectionMinChars);
  return { fingerprint, targetKind: kind, full: kept, catalogued: offered ? catalogued : [], grown: 0, keptBecause, ...(sections ? { sections } : {}) };
}

/** The description sections each kept tool goes out without, by tool name; undefined when none. */
function sectionsOf(tools: readonly ToolDefinition[], conversation: ChatRequest, minChars: number): Record<string, string[]> | undefined {
  if (minChars <= 0) return undefined;
  const authored = topicWords(conversationTexts(conversation).authored);
  const sections: Record<string, string[]> = {};
  for (const tool of tools) {
    const headings = untiedSections(tool, authored, minChars);
    if (headings.length > 0) sections[tool.name] = headings;
  }
  return Object.keys(sections).length > 0 ? sections : undefined;
}

function keepReasons(tools: readonly ToolDefinition[], request: ChatRequest, options: ToolCatalogOptions, tokens: TokenCounter, earlier: ReadonlySet<string>): Map<ToolDefinition, KeepReason> {
  const reasons = new Map<ToolDefinition, KeepReason>();
  const mcp = mcpNamesOf(tools.map((tool) => tool.name));
  const called = calledToolNames(request, tools);
  const forced = new Set(forcedToolNames(request.options.tool_choice, tools));
  const texts = conversationTexts(request);
  const authored = topicWords(texts.authored);
  const authoredStems = new Set(wordsOf(texts.authored).map(stem));
  const toolWords = tools.map((tool) => distinctiveWords(tool, mcp.get(tool.name)));
  // Wording several descriptions share ("travel assistant", "repository") cannot tie a tool to anything in particular.
  const frequency = new Map<string, number>();
  for (const words of toolWords) for (const word of words) frequency.set(word, (frequency.get(word) ?? 0) + 1);
  const commonAbove = options.tieWordMaxTools;
  tools.forEach((tool, index) => {
    let reason: KeepReason | undefined;
    if (!isMovable(tool)) reason = 'unmovable';
    else if (forced.has(tool.name)) reason = 'forced';
    else if (called.has(tool.name)) reason = 'called';
    else if (earlier.has(tool.name)) reason = 'earlier';
    else if (options.keepTools.includes(tool.name) || options.keepPrefixes.some((prefix) => tool.name.startsWith(prefix))) reason = 'kept';
    else if (namesTool(texts.all, tool.name) || namespaceFunctions(tool).some((name) => namesTool(texts.all, name))) reason = 'named';
    else if (options.keepWorkspaceTools && !mcp.has(tool.name) && isWorkspaceTool(tool.name)) reason = 'workspace';
    else if (describedByName(tool, mcp.get(tool.name), authoredStems)) reason = 'described';
    else if (!isOptInOnly(tool) && isTied(toolWords[index]!, nameWords(tool, mcp.get(tool.name)), authored, (word) => (frequency.get(word) ?? 0) <= commonAbove)) reason = 'tied';
    else if (toolTokens(tool, tokens) - tokens.count(catalogLine(tool, options.maxLineChars)) < options.minToolSavedTokens) reason = 'small';
    if (reason) reasons.set(tool, reason);
  });
  return reasons;
}

/**
 * A description that reserves the tool for the user's explicit request: Claude Code's 21 KB
 * `Workflow` ("ONLY call this tool when the user has explicitly opted into multi-agent
 * orchestration"), Codex's `create_goal` ("only when explicitly requested by the user").
 */
const OPT_IN_ONLY = /\bonly\b[^.\n]{0,80}\bexplicit(?:ly)?\b/i;

/**
 * True when the tool's own description says it is called only when the user explicitly asks: the
 * subject words it shares with a task ("audit", "migration") are then no sign the model will call
 * it, and only its name (or a call, or the prompt naming it) keeps it whole. Caught out, the
 * model loads it from the catalog in one round.
 */
function isOptInOnly(tool: ToolDefinition): boolean {
  return OPT_IN_ONLY.test(tool.description ?? '');
}

/**
 * True when every word of the tool's own name (its verb included: "create a file" is about
 * `create_file`, not `read_file`) occurs in what the user or the assistant wrote.
 */
function describedByName(tool: ToolDefinition, mcp: McpToolName | undefined, authored: ReadonlySet<string>): boolean {
  const words = nameWords(tool, mcp);
  return words.size > 0 && [...words].every((word) => authored.has(word));
}

/**
 * True when the conversation's own words tie the tool to it: two of the tool's distinctive words,
 * or one that is part of its name. A single everyday word its description happens to use
 * ("handles", "order", "status") is no sign the tool is needed: Claude Code's 21 KB `Workflow`
 * tool was kept whole for "which code handles each status".
 */
function isTied(toolWords: ReadonlySet<string>, named: ReadonlySet<string>, authored: ReadonlySet<string>, distinctive: (word: string) => boolean): boolean {
  let shared = 0;
  for (const word of toolWords) {
    if (!distinctive(word) || !authored.has(word)) continue;
    if (named.has(word) || ++shared >= 2) return true;
  }
  return false;
}

/** The stems of a tool's own name (an MCP tool's without its server label), its joining words left out. */
function nameWords(tool: ToolDefinition, mcp: McpToolName | undefined): Set<string> {
  return new Set(wordsOf(mcp ? mcp.tool : tool.name).filter((word) => word.length >= 3 && !NAME_FILLERS.has(word)).map(stem));
}

/** True when every word of the name is one of {@link WORKSPACE_WORDS} (`list_dir`, `run_in_terminal`, `MultiEdit`). */
function isWorkspaceTool(name: string): boolean {
  const words = wordsOf(name).filter((word) => word.length >= 2 && !NAME_FILLERS.has(word) && word !== 'in' && word !== 'to');
  return words.length > 0 && words.every((word) => WORKSPACE_WORDS.has(stem(word)));
}

/** What a workspace tool's name is made of: file and command verbs and nouns. */
const WORKSPACE_WORDS = new Set(
  ('read write edit create delete remove list file dir directory folder search grep glob find run terminal command shell bash exec execute replace string patch apply insert multi ls')
    .split(' ')
    .map(stem),
);

/** Small words tool names join their parts with (`run_in_terminal`, `get_errors_for_file`). */
const NAME_FILLERS = new Set(['the', 'and', 'for', 'from', 'with', 'into', 'onto']);

/** A tool's topic words, without the server label of an MCP name. */
function distinctiveWords(tool: ToolDefinition, mcp: McpToolName | undefined): Set<string> {
  const server = new Set(mcp ? wordsOf(mcp.server).map(stem) : []);
  const words = topicWords(`${mcp ? mcp.tool : tool.name} ${toolDescription(tool)}`);
  for (const word of server) words.delete(word);
  return words;
}

interface RenderedCatalog {
  readonly tools: readonly ToolDefinition[];
  readonly entries: number;
  readonly after: number;
  readonly mcpCatalogued: number;
}

function render(request: ChatRequest, selection: ToolCatalogPin, event: string, options: ToolCatalogOptions, tokens: TokenCounter, fullTokens: number, memo: RenderMemo, fingerprint: string, stash: Stash): StrategyResult {
  const result = renderCatalog(request, selection, event, options, tokens, fullTokens, memo, fingerprint);
  return selection.sections ? withSections(result, selection.sections, stash, tokens, fullTokens) : result;
}

/** The result with the pinned description sections of its full tools stashed (handles computed afresh: each stash keys its own). */
function withSections(result: StrategyResult, sections: Readonly<Record<string, readonly string[]>>, stash: Stash, tokens: TokenCounter, fullTokens: number): StrategyResult {
  const handles: string[] = [];
  const tools = result.request.tools.map((tool) => {
    const headings = sections[tool.name];
    if (!headings) return tool;
    const elided = withSectionsElided(tool, headings, stash, TOOL_CATALOG_ID);
    if (elided.handle) handles.push(elided.handle);
    return elided.tool;
  });
  if (handles.length === 0) return result;
  const after = tools.reduce((sum, tool) => sum + toolTokens(tool, tokens), 0);
  const note = `; sections of ${handles.length} tool description(s) the conversation has not raised stashed behind a marker`;
  return {
    ...result,
    request: { ...result.request, tools },
    action: result.action === 'tools-kept' ? 'tool-sections-stashed' : result.action,
    reason: `${result.reason}${note}`,
    handles: [...(result.handles ?? []), ...handles],
    details: { ...result.details, sectionTools: handles.length, toolTokensBefore: fullTokens, toolTokensAfter: after },
  };
}

function renderCatalog(request: ChatRequest, selection: ToolCatalogPin, event: string, options: ToolCatalogOptions, tokens: TokenCounter, fullTokens: number, memo: RenderMemo, fingerprint: string): StrategyResult {
  const details = { tools: request.tools.length, full: selection.full.length, catalogued: selection.catalogued.length, grown: selection.grown, replayed: event === 'replayed', targetKind: selection.targetKind, keptBecause: selection.keptBecause };
  if (selection.catalogued.length === 0) return { request, action: 'tools-kept', reason: `every tool keeps its schema: a catalog would save under ${options.minSavedTokens} tokens or nothing is left to list (${event})`, details };
  // The same list, in the same order and format, with the same catalogued set, renders to the same block.
  const key = ['render', fingerprint, request.format, options.maxLineChars, request.tools.map((tool) => tool.name).join('\u0001'), selection.catalogued.join('\u0001')].join('\u0000');
  const rendered = memo.get(key, (): RenderedCatalog => {
    const catalogued = new Set(selection.catalogued);
    const mcp = mcpNamesOf(request.tools.map((tool) => tool.name));
    const entries: CatalogEntry[] = request.tools.filter((tool) => catalogued.has(tool.name)).map((tool) => ({ tool, ...(mcp.has(tool.name) ? { mcp: mcp.get(tool.name)! } : {}) }));
    if (entries.length === 0) return { tools: request.tools, entries: 0, after: fullTokens, mcpCatalogued: 0 };
    const tools = [...request.tools.filter((tool) => !catalogued.has(tool.name)), catalogTool(entries, request.format, options.maxLineChars)];
    return { tools, entries: entries.length, after: tools.reduce((sum, tool) => sum + toolTokens(tool, tokens), 0), mcpCatalogued: entries.filter((entry) => entry.mcp).length };
  });
  if (rendered.entries === 0) return { request, action: 'tools-kept', reason: `none of the catalogued tools is in this request (${event})`, details };
  return {
    request: { ...request, tools: rendered.tools },
    action: event === 'replayed' ? 'tool-catalog-replayed' : 'tools-catalogued',
    reason: `${rendered.entries} of ${request.tools.length} tools listed in the ${CATALOG_TOOL_NAME} catalog, ${request.tools.length - rendered.entries} with their full schema (${event}; ${KIND_NOTES[selection.targetKind]}); every tool stays callable`,
    details: { ...details, toolTokensBefore: fullTokens, toolTokensAfter: rendered.after, mcpCatalogued: rendered.mcpCatalogued },
  };
}

function grow(pin: ToolCatalogPin, tools: readonly ToolDefinition[], joining: readonly string[]): ToolCatalogPin {
  const order = tools.map((tool) => tool.name);
  const grown = growByName(pin, joining);
  return { ...grown, full: order.filter((name) => grown.full.includes(name)) };
}

function growByName(pin: ToolCatalogPin, joining: readonly string[]): ToolCatalogPin {
  return { ...pin, full: [...pin.full, ...joining], catalogued: pin.catalogued.filter((name) => !joining.includes(name)), grown: pin.grown + joining.length };
}

/** Tokens the catalog saves: the catalogued tools' schemas, less the catalog tool that lists them. */
function savedTokens(tools: readonly ToolDefinition[], catalogued: ReadonlySet<string>, maxLineChars: number, tokens: TokenCounter): number {
  const entries = tools.filter((tool) => catalogued.has(tool.name));
  if (entries.length === 0) return 0;
  const before = entries.reduce((sum, tool) => sum + toolTokens(tool, tokens), 0);
  return before - toolTokens(catalogTool(entries.map((tool) => ({ tool })), 'neutral', maxLineChars), tokens);
}

/** Tokens of a tool as the request counts them: name, description and schema. */
function toolTokens(tool: ToolDefinition, tokens: TokenCounter): number {
  return tokens.countTool(tool);
}

/** The tool list's fingerprint, whatever order the client sent it in. */
export function toolListFingerprint(tools: readonly ToolDefinition[]): string {
  return shortHash(tools.map((tool) => JSON.stringify(tool)).sort());
}

/**
 * Tools without a name (kept raw), provider server tools (typed, e.g. `web_search_20250305`)
 * and a tool carrying the client's own cache breakpoint stay where they are. A Responses
 * namespace entry (kept raw under its name) moves as a whole.
 */
function isMovable(tool: ToolDefinition): boolean {
  if (isNamespaceTool(tool)) return !('cache_control' in (tool.extra!.$raw as object));
  const type = tool.extra?.type;
  return tool.name.length > 0 && tool.extra?.$raw === undefined && tool.extra?.cache_control === undefined && (type === undefined || type === 'function' || type === 'custom');
}

/** Every text of the conversation (for exact tool names), and what the user and the assistant wrote (for topic words). */
function conversationTexts(request: ChatRequest): { all: string; authored: string } {
  const all: string[] = [];
  const authored: string[] = [];
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part.type !== 'text') continue;
      all.push(part.text);
      if (message.role === 'user' || message.role === 'assistant') authored.push(ownWords(part.text));
    }
  }
  return { all: all.join('\n'), authored: authored.join('\n') };
}

/**
 * A message's text without the context blocks a client wraps in tags around the user's words
 * (Copilot's `<environment_info>`, `<workspace_info>`, `<reminderInstructions>`, Claude Code's
 * `<system-reminder>`): their wording is the client's, on every request alike, and would tie
 * every tool. A block whose tag names the request itself (`<userRequest>`, `<user_query>`) is
 * the user's and is kept.
 */
function ownWords(text: string): string {
  if (!text.includes('</')) return text;
  return text.replace(TAGGED_BLOCK, (block: string, tag: string, inner: string) => (REQUEST_TAG.test(tag) ? inner : block.length > 0 ? '\n' : ''));
}

const TAGGED_BLOCK = /<([A-Za-z][\w-]*)(?:\s[^<>]*)?>([\s\S]*?)<\/\1>/g;
const REQUEST_TAG = /request|query|prompt|question|task/i;

/** True when `text` names the tool as a whole word (not as part of a longer identifier). */
function namesTool(text: string, name: string): boolean {
  if (name.length < 3) return false;
  for (let index = text.indexOf(name); index >= 0; index = text.indexOf(name, index + 1)) {
    const before = index > 0 ? text[index - 1]! : ' ';
    const after = text[index + name.length] ?? ' ';
    if (!IDENTIFIER_CHAR.test(before) && !IDENTIFIER_CHAR.test(after)) return true;
  }
  return false;
}

const IDENTIFIER_CHAR = /[A-Za-z0-9_]/;

/** The tools the conversation called; a call of a namespace's function is a call of the namespace too. */
function calledToolNames(request: ChatRequest, tools: readonly ToolDefinition[]): Set<string> {
  const owners = namespaceOwners(tools);
  const names = new Set<string>();
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (part.type !== 'tool_call') continue;
      names.add(part.name);
      const owner = owners.get(part.name);
      if (owner !== undefined) names.add(owner);
    }
  }
  return names;
}

/**
 * The tools `tool_choice` forces: OpenAI `{type:"function", function:{name}}`, the Responses API's
 * `{type:"function", name}`, Anthropic `{type:"tool", name}`, VS Code's required mode with one
 * tool, and the tools an `allowed_tools` choice allows. A forced function of a namespace tool in
 * `tools` forces the namespace as well.
 */
export function forcedToolNames(toolChoice: unknown, tools: readonly ToolDefinition[] = []): string[] {
  const names = choiceNames(toolChoice);
  const owners = namespaceOwners(tools);
  return names.flatMap((name) => (owners.has(name) ? [name, owners.get(name)!] : [name]));
}

function choiceNames(toolChoice: unknown): string[] {
  if (typeof toolChoice !== 'object' || toolChoice === null) return [];
  const choice = toolChoice as Record<string, unknown>;
  if ((choice.type === 'tool' || choice.type === 'function') && typeof choice.name === 'string') return [choice.name];
  const fn = choice.function;
  if (choice.type === 'function' && typeof fn === 'object' && fn !== null && typeof (fn as Record<string, unknown>).name === 'string') return [(fn as Record<string, unknown>).name as string];
  // allowed_tools: Chat Completions nests it ({allowed_tools: {mode, tools}}), the Responses API does not ({mode, tools}).
  const allowed = (choice.allowed_tools as { tools?: unknown } | undefined)?.tools ?? choice.tools;
  if (choice.type === 'allowed_tools' && Array.isArray(allowed)) return allowed.flatMap((entry) => choiceNames(entry));
  return [];
}

function readOptions(values: Readonly<Record<string, unknown>>): ToolCatalogOptions {
  return {
    minSavedTokens: numberOption(values, TOOL_CATALOG_ID, 'minSavedTokens', 0),
    minToolSavedTokens: numberOption(values, TOOL_CATALOG_ID, 'minToolSavedTokens', 0),
    tieWordMaxTools: numberOption(values, TOOL_CATALOG_ID, 'tieWordMaxTools', 0),
    endpoints: booleanOption(values, TOOL_CATALOG_ID, 'endpoints'),
    copilotHostedWindowShare: numberOption(values, TOOL_CATALOG_ID, 'copilotHostedWindowShare', 0),
    keepWorkspaceTools: booleanOption(values, TOOL_CATALOG_ID, 'keepWorkspaceTools'),
    keepTools: stringListOption(values, TOOL_CATALOG_ID, 'keepTools'),
    keepPrefixes: stringListOption(values, TOOL_CATALOG_ID, 'keepPrefixes'),
    maxLineChars: numberOption(values, TOOL_CATALOG_ID, 'maxLineChars', 1),
    sectionMinChars: numberOption(values, TOOL_CATALOG_ID, 'sectionMinChars', 0),
  };
}

function percent(share: number): string {
  return `${Math.round(share * 100)}%`;
}
