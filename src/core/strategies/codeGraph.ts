/**
 * code_graph: when the conversation holds source files, keep in full the definitions the
 * latest turn is about (and what they call, and their class's constructor) and outline the
 * rest: bodies become one stashed marker line each; signatures, docstrings, imports and
 * top-level declarations stay.
 *
 * Cache-safe: only tool outputs that are becoming history (messages in [frozenCount,
 * freshStart)) are rewritten, once; the working set is what the latest turn (the last
 * assistant message and the fresh input) mentions at that moment, optionally with the task.
 * The reference graph is built from every source in the original request. A read is outlined
 * only when the outline removes enough to pay for rewriting what the provider has cached
 * (`pipeline/cacheEconomics.ts`).
 */
import type { z } from 'zod';
import { findToolOutputs, replaceSegments, type ToolOutputSegment } from '../chat/toolOutput';
import { protectedSegmentKeys } from './shared/clientReferences';
import { messageText, type ChatRequest } from '../chat/types';
import { GrammarLoader } from '../code/grammarLoader';
import { extractMentions, mergeMentions, type Mentions } from '../code/mentions';
import { outlineSource } from '../code/outliner';
import { readHintFromCommand, readHintFromToolCall, type ReadHint } from '../code/readCommands';
import { ReferenceGraph, type GraphSource } from '../code/referenceGraph';
import { SourceAnalyzer, type Analysis } from '../code/sourceAnalyzer';
import { paysForCacheWrite } from '../pipeline/cacheEconomics';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import type { ElideInput } from '../stash/stash';
import type { StrategyEnvironment } from './environment';
import { optionDefaults } from '../pipeline/optionSchema';
import { CODE_GRAPH_OPTIONS } from './options/codeGraphOptions';

export const CODE_GRAPH_ID = 'code_graph';

/** Options of code_graph, as its schema in `options/` declares them (type, default, bounds, description). */
export type CodeGraphOptions = Readonly<z.output<typeof CODE_GRAPH_OPTIONS>>;

export const CODE_GRAPH_DEFAULTS: CodeGraphOptions = optionDefaults(CODE_GRAPH_OPTIONS);

export function createCodeGraph(environment: StrategyEnvironment = {}): Strategy {
  const analyzer = new SourceAnalyzer(new GrammarLoader(environment.assets));
  const mentions = new MentionMemo();
  return {
    id: CODE_GRAPH_ID,
    defaultEnabled: true,
    kind: 'transform',
    defaults: { ...CODE_GRAPH_DEFAULTS },
    optionSchema: CODE_GRAPH_OPTIONS,
    apply: (request, context) => applyCodeGraph(analyzer, mentions, request, context),
  };
}

interface Candidate {
  readonly segment: ToolOutputSegment;
  readonly analysis: Analysis;
}

/** Mentions per message text: earlier messages are read again on every turn. */
class MentionMemo {
  private readonly known = new Map<string, Mentions>();

  of(text: string): Mentions {
    let mentions = this.known.get(text);
    if (!mentions) {
      mentions = extractMentions(text);
      this.known.set(text, mentions);
      if (this.known.size > 2_000) this.known.delete(this.known.keys().next().value as string);
    }
    return mentions;
  }
}

async function applyCodeGraph(analyzer: SourceAnalyzer, memo: MentionMemo, request: ChatRequest, context: StrategyContext): Promise<StrategyResult> {
  const options = readOptions(context.options);
  const unchanged = (action: string, reason: string, details?: Record<string, string | number | boolean>): StrategyResult => ({ request, action, reason, details });
  if (context.freshStart <= context.frozenCount) return unchanged('nothing-to-do', 'no tool output is becoming history on this turn');

  // One call's read is worked out once for both passes (a command parsed, arguments read as JSON).
  const callReads = new CallReads();
  const hints = readHints(request, callReads);
  const analyzeSegment = (segment: ToolOutputSegment): Promise<Analysis> => analyzeWith(analyzer, hints, segment, options);

  const candidates: Candidate[] = [];
  const referenced = protectedSegmentKeys(request);
  for (const segment of findToolOutputs(request)) {
    context.deadline.check();
    if (context.signal.aborted) return unchanged('strategy-cancelled', 'the time limit passed before the sources were read');
    if (segment.messageIndex < context.frozenCount || segment.messageIndex >= context.freshStart || segment.isError) continue;
    if (!hasLines(segment.text, options.minLines) || context.stash.hasIssuedMarker(segment.text) || referenced.has(segment.key)) continue;
    candidates.push({ segment, analysis: await analyzeSegment(segment) });
  }
  const counts = { sources: 0, outlined: 0, bodiesElided: 0, linesElided: 0, keptInFull: 0, keptForCache: 0, unknownLanguage: 0, parseFailed: 0, grammarFailed: 0 };
  const problems: string[] = [];
  for (const { analysis } of candidates) {
    if (analysis.status === 'unknown-language') counts.unknownLanguage++;
    if (analysis.status === 'parse-failed' || analysis.status === 'grammar-failed') {
      if (analysis.status === 'parse-failed') counts.parseFailed++;
      else counts.grammarFailed++;
      problems.push(analysis.reason);
    }
    if (analysis.status === 'parsed' || analysis.status === 'parse-failed' || analysis.status === 'grammar-failed') counts.sources++;
  }
  const parsed = candidates.filter((candidate) => candidate.analysis.status === 'parsed');
  if (parsed.length === 0) {
    const why = problems.length > 0 ? `${uniqueProblems(problems)}; the source passed through untouched` : counts.unknownLanguage > 0 ? 'source in a language without a grammar passed through untouched' : 'no source file read is becoming history';
    return unchanged(problems.length > 0 ? 'source-passed-through' : 'nothing-to-do', why, { ...counts });
  }

  // The graph spans every source in the request as it arrived, fresh input included.
  const originalHints = readHints(context.original, callReads);
  const graphSources: GraphSource[] = [];
  const freshReads: GraphSource[] = [];
  for (const segment of findToolOutputs(context.original)) {
    context.deadline.check();
    if (context.signal.aborted) return unchanged('strategy-cancelled', 'the time limit passed before the graph was built');
    if (!hasLines(segment.text, 3)) continue;
    const analysis = await analyzeWith(analyzer, originalHints, segment, options);
    if (analysis.status !== 'parsed') continue;
    const entry: GraphSource = { id: segment.key, source: analysis.source, symbols: analysis.symbols };
    graphSources.push(entry);
    if (segment.messageIndex >= context.freshStart) freshReads.push(entry);
  }
  const graph = new ReferenceGraph(graphSources);
  const mentions = latestTurnMentions(context, freshReads, options, memo);
  const workingSet = graph.workingSet(mentions, options);

  const replacements = new Map<string, string>();
  const handles: string[] = [];
  for (const { segment, analysis } of parsed) {
    context.deadline.check();
    if (analysis.status !== 'parsed') continue;
    const entry: GraphSource = { id: segment.key, source: analysis.source, symbols: analysis.symbols };
    // Priced before anything is stashed (the read is in history, so the provider has it cached);
    // the bodies are stashed only once the outline pays, and come out as the preview showed them.
    const bodies: ElideInput[] = [];
    const preview = (input: ElideInput) => (bodies.push(input), context.stash.preview(input));
    const outline = outlineSource(analysis.source, analysis.symbols, (unit) => workingSet.keys.has(graph.keyOf(entry, unit)), { elide: preview }, { minBodyLines: options.minBodyLines, kind: CODE_GRAPH_ID });
    counts.keptInFull += outline.keptUnits;
    if (outline.elided.length === 0) continue;
    const before = context.tokens.count(segment.text);
    const after = context.tokens.count(outline.text);
    if (!(context.rewrites ? context.rewrites.pays(segment.messageIndex, before, after) : paysForCacheWrite(before, after, context.cachedRewriteMinSavedShare))) {
      counts.keptForCache++;
      continue;
    }
    for (const input of bodies) context.stash.elide(input);
    replacements.set(segment.key, outline.text);
    counts.outlined++;
    counts.bodiesElided += outline.elided.length;
    counts.linesElided += outline.elided.reduce((sum, body) => sum + body.lines, 0);
    handles.push(...outline.elided.map((body) => body.handle));
  }
  const details = { ...counts, targeted: workingSet.targeted, addedByGraph: workingSet.added, workingSet: workingSet.keys.size };
  const problemNote = problems.length > 0 ? `; ${uniqueProblems(problems)} (passed through)` : '';
  if (replacements.size === 0) {
    const cacheNote = counts.keptForCache > 0 ? `; ${counts.keptForCache} outline(s) would not have paid for rewriting a cached read` : '';
    return unchanged('nothing-to-do', `${counts.sources} source read(s) had no body worth eliding outside the working set${cacheNote}${problemNote}`, details);
  }
  const target = workingSet.keys.size === 0 ? 'no target in the latest turn: whole files outlined' : `${workingSet.keys.size} definition(s) kept in full (${workingSet.targeted} targeted, ${workingSet.added} by calls and class context)`;
  return {
    request: replaceSegments(request, replacements),
    action: 'source-outlined',
    reason: `outlined ${counts.outlined} of ${counts.sources} source read(s), ${counts.bodiesElided} bodies (${counts.linesElided} lines) elided; ${target}${problemNote}`,
    handles,
    details,
  };
}

/**
 * What the latest turn points at: the last assistant message and the fresh input (a fresh
 * whole-file read names no target; a fresh ranged read targets its lines), plus the task.
 */
function latestTurnMentions(context: StrategyContext, freshReads: readonly GraphSource[], options: CodeGraphOptions, memo: MentionMemo): Mentions {
  const messages = context.original.messages;
  const all: Mentions[] = [];
  const lastAssistant = messages[context.freshStart - 1];
  if (lastAssistant?.role === 'assistant') all.push(extractMentions(messageText(lastAssistant)));
  const freshReadKeys = new Set(freshReads.map((entry) => entry.id));
  const fresh = findToolOutputs(context.original).filter((segment) => segment.messageIndex >= context.freshStart);
  for (let index = context.freshStart; index < messages.length; index++) {
    let text = messageText(messages[index]!);
    for (const segment of fresh) {
      context.deadline.check();
      if (segment.messageIndex === index && freshReadKeys.has(segment.key)) text = text.replace(segment.text, '');
    }
    all.push(extractMentions(text));
  }
  const ranged = freshReads.flatMap((entry) => {
    const numbers = entry.source.lineNumbers;
    const first = numbers?.[0];
    const last = numbers?.[numbers.length - 1];
    // A read from line 1 to the end is the whole file: it shows everything and targets nothing.
    if (entry.source.path === undefined || first === undefined || last === undefined || first <= 1) return [];
    return [{ path: entry.source.path, first, last }];
  });
  all.push({ identifiers: new Set(), locations: ranged, quotedLines: new Set(), fragments: [] });
  if (options.taskMentions) {
    const task = messages.find((message) => message.role === 'user');
    if (task) all.push(memo.of(messageText(task)));
  }
  if (options.conversationMentions) {
    for (let index = 0; index < context.freshStart - 1; index++) {
      if (messages[index]?.role === 'assistant') all.push(memo.of(messageText(messages[index]!)));
    }
  }
  return mergeMentions(all);
}

/** What the producing call says about a segment: the file it read, or whether it may hold code at all. */
type ReadInfo = { readonly hint: ReadHint } | { readonly hint?: undefined; readonly maybeSource: boolean };

/**
 * The read of each segment: its tool call's arguments, else the shell command that printed it.
 * Output of a known command or tool that is not a file read (a test run, a grep) is not
 * source, however much code it quotes; a tool result with no known producer is judged by content.
 */
function readHints(request: ChatRequest, callReads: CallReads): (segment: ToolOutputSegment) => ReadInfo {
  const calls = new Map<string, { name: string; arguments: unknown }>();
  for (const message of request.messages) {
    for (const part of message.parts) if (part.type === 'tool_call') calls.set(part.id, { name: part.name, arguments: part.arguments });
  }
  return (segment) => {
    const call = segment.callId === undefined ? undefined : calls.get(segment.callId);
    if (call) {
      const hint = callReads.of(call.name, call.arguments);
      return hint ? { hint } : { maybeSource: /read|view|open|file|cat|show|source|content/i.test(call.name) };
    }
    if (segment.command !== undefined) {
      const hint = readHintFromCommand(segment.command);
      return hint ? { hint } : { maybeSource: false };
    }
    // Code a person pasted into their message is their own words: only tool results are judged by content.
    return { maybeSource: segment.source === 'tool_result' };
  };
}

/** readHintFromToolCall's answers for one request, by the call's arguments (the same string or object in both passes) and name. */
class CallReads {
  private readonly known = new Map<unknown, Map<string, ReadHint | undefined>>();

  of(name: string, argumentsValue: unknown): ReadHint | undefined {
    let byName = this.known.get(argumentsValue);
    if (byName === undefined) {
      byName = new Map();
      this.known.set(argumentsValue, byName);
    }
    if (byName.has(name)) return byName.get(name);
    const hint = readHintFromToolCall(name, argumentsValue);
    byName.set(name, hint);
    return hint;
  }
}

async function analyzeWith(analyzer: SourceAnalyzer, hints: (segment: ToolOutputSegment) => ReadInfo, segment: ToolOutputSegment, options: CodeGraphOptions): Promise<Analysis> {
  const info = hints(segment);
  if (info.hint === undefined && !info.maybeSource) return { status: 'not-source' };
  return analyzer.analyze(segment.text, info.hint, { maxErrorShare: options.maxErrorShare });
}

function readOptions(raw: Readonly<Record<string, unknown>>): CodeGraphOptions {
  const number = (name: keyof CodeGraphOptions, minimum: number): number => {
    const value = raw[name] ?? CODE_GRAPH_DEFAULTS[name];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < minimum) throw new Error(`Herald: code_graph option "${name}" must be a number ≥ ${minimum}`);
    return value;
  };
  const flag = (name: keyof CodeGraphOptions): boolean => {
    const value = raw[name] ?? CODE_GRAPH_DEFAULTS[name];
    if (typeof value !== 'boolean') throw new Error(`Herald: code_graph option "${name}" must be true or false`);
    return value;
  };
  return {
    calleeDepth: number('calleeDepth', 0),
    maxDefinitionsPerCallee: number('maxDefinitionsPerCallee', 1),
    keepConstructors: flag('keepConstructors'),
    maxDefinitionsPerUsage: number('maxDefinitionsPerUsage', 0),
    taskMentions: flag('taskMentions'),
    conversationMentions: flag('conversationMentions'),
    minLines: number('minLines', 1),
    minBodyLines: number('minBodyLines', 1),
    maxErrorShare: number('maxErrorShare', 0),
  };
}

/** Whether the text has at least `wanted` lines, read only as far as that many. */
function hasLines(text: string, wanted: number): boolean {
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1 && lines < wanted; index = text.indexOf('\n', index + 1)) lines++;
  return lines >= wanted;
}

function uniqueProblems(problems: readonly string[]): string {
  return [...new Set(problems)].join('; ');
}
