/**
 * relevance_filter: keeps the lines of a tool output (or of bulk pasted into a user message)
 * that answer the latest turn. The query comes from the user's latest own words (falling back
 * to the task and the latest assistant text when the latest user message is only pasted
 * output); every line is ranked; the top lines are kept in their order with a few leading and
 * trailing lines and a little context; error lines are always kept, and warning lines come
 * first when the question asks about failures; each elided run is stashed behind a marker. The user's own words are never
 * ranked or trimmed: only the pasted span of a user message is touched.
 *
 * By default it filters bulk pasted under a question in the current turn (`pastedFresh`: the
 * question is right there, in the same message, so the decision is the message's own and is
 * replayed as its arrival form); a pasted list of items (retrieved chunks, search results,
 * candidates, files) is filtered item by item. Tool outputs in the undecided history are
 * filtered only with `historyOutputs`.
 */
import type { z } from 'zod';
import { findToolOutputs, replaceSegments, type ToolOutputSegment } from '../chat/toolOutput';
import type { ChatRequest } from '../chat/types';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { asksAboutFailures } from '../relevance/diagnosticLines';
import { itemStarts } from '../chat/pastedBulk';
import { jsonItemHeader, jsonItemList } from '../content/jsonItems';
import { GrammarLoader } from '../code/grammarLoader';
import { SourceAnalyzer } from '../code/sourceAnalyzer';
import type { ElideInput } from '../stash/stash';
import { fencedFileLabel } from '../chat/pastedFiles';
import { outlinePastedSources } from './shared/pastedSources';
import { cutPasteByUnit, cutsByUnit } from './shared/pastedUnitFilter';
import { isUserPaste } from './shared/segmentSelection';
import { detectContentFormat, type ContentFormat } from '../content';
import { selectItems } from '../relevance/itemSelection';
import { droppedRuns, selectLines } from '../relevance/lineSelection';
import { scoreLexically } from '../relevance/lexicalScorer';
import { LEXICAL_ONLY_NOTE, loadScorerFor, type ScorerSource } from '../relevance/scorerSource';
import type { RelevanceScorer } from '../relevance/types';
import { queryForLatestTurn, queryForPasted } from '../relevance/turnQuery';
import type { StrategyEnvironment } from './environment';
import { describeError } from '../errors';
import { optionDefaults } from '../pipeline/optionSchema';
import { RELEVANCE_FILTER_OPTIONS } from './options/relevanceFilterOptions';

/** Options of relevance_filter, as its schema in `options/` declares them (type, default, bounds, description); they include the line and item selection options. */
export type RelevanceFilterOptions = Readonly<z.output<typeof RELEVANCE_FILTER_OPTIONS>>;

export const RELEVANCE_FILTER_DEFAULTS: RelevanceFilterOptions = optionDefaults(RELEVANCE_FILTER_OPTIONS);

/** Formats whose lines are ranked one by one: prose, code and other text, and logs (what their digest left). */
const LINE_RANKED: ReadonlySet<ContentFormat> = new Set(['text', 'log']);

/** Formats whose own cleaner keeps what each part means (each hunk, each row, the page's text): never cut by unit. */
const UNIT_EXCLUDED: ReadonlySet<ContentFormat> = new Set(['json', 'html', 'diff']);

/** Rough characters per token of log and code text, for the worth-it threshold only. */
const CHARACTERS_PER_TOKEN = 4;
/** About how long one elision marker is. */
const MARKER_CHARACTERS = 100;

export function createRelevanceFilter(environment: StrategyEnvironment = {}): Strategy {
  const scorers = loadScorerFor(environment);
  let analyzer: SourceAnalyzer | undefined;
  const sources = (): SourceAnalyzer => (analyzer ??= new SourceAnalyzer(new GrammarLoader(environment.assets)));
  return {
    id: 'relevance_filter',
    // On by default for bulk pasted under a question (the question is right there); history
    // outputs only with `historyOutputs`, by measurement: on the agent trajectories filtering
    // history takes outputs that observation_mask would retire whole, so the pipeline saves
    // less with it (HERALD_BENCH_TRAJECTORIES=20: tokens saved 35.5% → 34.5%, cached cost
    // 24.5% → 23.1%).
    defaultEnabled: true,
    kind: 'transform',
    touchesFresh: true,
    defaults: { ...RELEVANCE_FILTER_DEFAULTS },
    optionSchema: RELEVANCE_FILTER_OPTIONS,
    apply: (request, context) => filterRequest(request, context, readOptions(context.options), scorers, sources),
  };
}

function readOptions(options: Readonly<Record<string, unknown>>): RelevanceFilterOptions {
  const numbers = ['minLines', 'minSavedTokens', 'leadingLines', 'trailingLines', 'contextLines', 'keepRatio', 'minKeptLines', 'relativeScoreFloor', 'minElidedRun', 'keepItemRatio', 'minKeptItems', 'itemScoreFloor'] as const;
  const read: Record<string, number | boolean> = {};
  for (const name of numbers) {
    const value = options[name];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`Herald: relevance_filter option "${name}" must be a number ≥ 0, got ${JSON.stringify(value)}`);
    read[name] = value;
  }
  for (const name of ['pastedFresh', 'historyOutputs', 'keepFailedOutputs'] as const) {
    const value = options[name];
    if (typeof value !== 'boolean') throw new Error(`Herald: relevance_filter option "${name}" must be true or false, got ${JSON.stringify(value)}`);
    read[name] = value;
  }
  return read as unknown as RelevanceFilterOptions;
}

async function filterRequest(request: ChatRequest, context: StrategyContext, options: RelevanceFilterOptions, scorers: ScorerSource, analyzer: () => SourceAnalyzer): Promise<StrategyResult> {
  const candidates = candidateSegments(request, context, options);
  if (candidates.length === 0) {
    // Without a model every decision says the ranking is lexical; with one, nothing was ranked here.
    return { request, action: 'nothing-to-do', reason: `no undecided tool output of ${options.minLines} lines or more${scorers.configured ? '' : LEXICAL_ONLY_NOTE}` };
  }
  const { scorer, note } = await scorers.get(context.logger);
  const turnQuery = queryForLatestTurn(request);
  const segments = findToolOutputs(request);

  const replacements = new Map<string, string>();
  const handles: string[] = [];
  let linesBefore = 0;
  let linesKept = 0;
  let errorLines = 0;
  let itemsBefore = 0;
  let itemsKept = 0;
  let fellBack = false;
  const sources = new Set<string>();
  for (const segment of candidates) {
    context.signal.throwIfAborted();
    // Pasted bulk is ranked against the words it was pasted under, when there are some.
    const query = queryForPasted(request, segment, turnQuery, segments);
    if (query.source === 'none') continue;
    const jsonList = isUserPaste(request, segment) && segment.messageIndex >= context.freshStart ? jsonItemList(segment.text) : undefined;
    if (jsonList !== undefined) {
      // A retriever's JSON answer: its elements ranked and cut as items, the bytes around them kept.
      const { starts: elementStarts, end } = jsonList;
      const items = elementStarts.map((start, index) => segment.text.slice(start, elementStarts[index + 1] ?? end));
      const filtered = await filterItems(items, query.text, scorer, options, context, analyzer, jsonItemHeader);
      if (filtered === undefined) continue;
      replacements.set(segment.key, `${segment.text.slice(0, elementStarts[0])}${filtered.text}${segment.text.slice(end)}`);
      sources.add(query.source);
      handles.push(...filtered.handles);
      itemsBefore += items.length;
      itemsKept += filtered.kept;
      continue;
    }
    const starts = itemStarts(segment.text);
    if (starts !== undefined) {
      const items = starts.map((start, index) => segment.text.slice(start, starts[index + 1] ?? segment.text.length));
      const filtered = await filterItems(items, query.text, scorer, options, context, analyzer);
      if (filtered === undefined) continue;
      replacements.set(segment.key, filtered.text);
      sources.add(query.source);
      handles.push(...filtered.handles);
      itemsBefore += items.length;
      itemsKept += filtered.kept;
      continue;
    }
    if (isUserPaste(request, segment) && segment.messageIndex >= context.freshStart && query.source === 'user') {
      // Pasted data of any kind, mixed or not, is cut unit by unit: log events, samples, spans, hits.
      const cut = await cutPasteByUnit(segment.text, query.text, (text, units) => scoreSafely(scorer, text, units, context, () => (fellBack = true)), { keepRatio: options.keepRatio, minKept: options.minKeptLines, relativeScoreFloor: options.relativeScoreFloor }, context.stash, requestCharacters(request) - segment.text.length);
      if (cut !== undefined) {
        replacements.set(segment.key, cut.text);
        sources.add(query.source);
        handles.push(cut.handle);
        linesBefore += cut.linesBefore;
        linesKept += cut.linesKept;
        continue;
      }
      if (!LINE_RANKED.has(detectContentFormat(segment.text)) || lineCount(segment.text) < options.minLines) continue;
    }
    const failureQuestion = asksAboutFailures(query.text);
    const lines = segment.text.split('\n');
    let scores: number[];
    try {
      scores = await scorer.score(query.text, lines, context.signal);
    } catch (error) {
      if (context.signal.aborted || scorer.mode === 'lexical') throw error;
      // Fail-open to lexical ranking when the embedding model fails at run time.
      context.logger.warn('embedding-failed', `Herald: relevance_filter fell back to lexical ranking: ${describeError(error)}`);
      scores = scoreLexically(query.text, lines);
      fellBack = true;
    }
    const selection = selectLines(lines, scores, options, failureQuestion);
    const runs = droppedRuns(selection.kept);
    // Worth it? A character estimate is enough for this threshold (an exact count of the new
    // text would cost more than the ranking); checked before anything is stashed.
    const droppedCharacters = runs.reduce((sum, [start, end]) => sum + lines.slice(start, end).reduce((length, line) => length + line.length + 1, 0) - MARKER_CHARACTERS, 0);
    if (runs.length === 0 || droppedCharacters / CHARACTERS_PER_TOKEN < options.minSavedTokens) continue;
    const pieces: string[] = [];
    const segmentHandles: string[] = [];
    let cursor = 0;
    for (const [start, end] of runs) {
      pieces.push(...lines.slice(cursor, start));
      const elision = context.stash.elide({
        original: lines.slice(start, end).join('\n'),
        summary: `${end - start} line(s) elided as off-topic for the latest question`,
        kind: 'relevance_filter',
      });
      pieces.push(elision.replacement);
      segmentHandles.push(elision.handle);
      cursor = end;
    }
    pieces.push(...lines.slice(cursor));
    replacements.set(segment.key, pieces.join('\n'));
    sources.add(query.source);
    handles.push(...segmentHandles);
    linesBefore += lines.length;
    linesKept += selection.kept.filter(Boolean).length;
    errorLines += selection.errors;
  }
  const mode = fellBack ? 'lexical' : scorer.mode;
  const querySource = [...sources].sort().join('+') || turnQuery.source;
  const details = { mode, querySource, outputs: replacements.size, linesBefore, linesKept, errorLinesKept: errorLines, itemsBefore, itemsKept };
  if (replacements.size === 0) {
    const why = turnQuery.source === 'none' && !sources.size ? 'no user or assistant words to rank lines against' : 'no output had enough off-topic lines to be worth eliding';
    return { request, action: 'nothing-to-do', reason: `${why} (${mode} ranking${note})`, details };
  }
  const against = sources.has('user') ? 'the question each was pasted under or the latest question' : 'the task and latest assistant message';
  return {
    request: replaceSegments(request, replacements),
    action: 'tool-output-filtered',
    reason: `kept ${linesKept} of ${linesBefore} lines${itemsBefore > 0 ? ` and ${itemsKept} of ${itemsBefore} pasted items` : ''} in ${replacements.size} output(s) by ${fellBack ? 'lexical (the embedding model failed)' : scorer.mode} relevance to ${against}${note}`,
    handles,
    details,
  };
}

/** The segments this request may filter: undecided history, plus fresh bulk pasted under a question. */
function candidateSegments(request: ChatRequest, context: StrategyContext, options: RelevanceFilterOptions): ToolOutputSegment[] {
  const fresh = options.pastedFresh ? freshPastedUnderQuestion(request, context) : new Set<string>();
  return findToolOutputs(request).filter((segment) => {
    const inHistory = options.historyOutputs && segment.messageIndex >= context.frozenCount && segment.messageIndex < context.freshStart;
    if (!inHistory && !fresh.has(segment.key)) return false;
    if (options.keepFailedOutputs && (segment.isError || (segment.exitCode !== undefined && segment.exitCode !== 0))) return false;
    // Only this stash's own markers: a forged or quoted one must not shield the output.
    if (context.stash.hasIssuedMarker(segment.text)) return false;
    if (isRetrieval(segment)) return false;
    if (itemStarts(segment.text) !== undefined) return true;
    if (fresh.has(segment.key) && jsonItemList(segment.text) !== undefined) return true;
    // Data pasted under the question, of any kind and mixed or not, is cut unit by unit.
    if (fresh.has(segment.key) && cutsByUnit(segment.text) && !UNIT_EXCLUDED.has(detectContentFormat(segment.text))) return true;
    // Structured output has its own cleaner, which keeps what every line of it means (each hunk
    // of a diff, each row of JSON, each failure of a test run): ranking its lines would cut that.
    return lineCount(segment.text) >= options.minLines && LINE_RANKED.has(detectContentFormat(segment.text, { command: segment.command }));
  });
}

/**
 * A pasted list cut to the items that answer the question: each run of dropped items becomes one
 * marker (the blank lines after it kept), undefined when too little would go.
 */
async function filterItems(items: readonly string[], query: string, scorer: RelevanceScorer, options: RelevanceFilterOptions, context: StrategyContext, analyzer: () => SourceAnalyzer, header: (item: string) => string | undefined = itemHeader): Promise<{ text: string; handles: string[]; kept: number } | undefined> {
  let scores: number[];
  try {
    scores = await scorer.score(query, items, context.signal);
  } catch (error) {
    if (context.signal.aborted || scorer.mode === 'lexical') throw error;
    context.logger.warn('embedding-failed', `Herald: relevance_filter fell back to lexical ranking: ${describeError(error)}`);
    scores = scoreLexically(query, items);
  }
  const kept = selectItems(scores, options);
  // Pasted source files that stay are outlined against the question, as code_graph outlines reads;
  // priced first, stashed only once the whole rewrite is worth it.
  const bodies: ElideInput[] = [];
  const outlined = await outlinePastedSources(items.map((item, index) => (kept[index] ? item : '')), query, analyzer(), { elide: (input) => (bodies.push(input), context.stash.preview(input)) });
  const dropped = items.reduce((sum, item, index) => sum + (kept[index] ? item.length - outlined.items[index]!.length : item.length - MARKER_CHARACTERS), 0);
  if (dropped / CHARACTERS_PER_TOKEN < options.minSavedTokens) return undefined;
  const pieces: string[] = [];
  const handles: string[] = [];
  for (const input of bodies) handles.push(context.stash.elide(input).handle);
  for (let index = 0; index < items.length; ) {
    if (kept[index]) {
      pieces.push(outlined.items[index]!);
      index++;
      continue;
    }
    let end = index;
    while (end < items.length && !kept[end]) end++;
    const original = items.slice(index, end).join('');
    const layout = /\s*$/.exec(original)?.[0] ?? '';
    // Each dropped item's header stays (a chunk's id, path and similarity; a file's path): the
    // structure an answer cites and a retrieve names. The marker holds the items whole.
    const headers = items.slice(index, end).map(header).filter((line) => line !== undefined);
    const elision = context.stash.elide({
      original,
      summary: `${end - index} pasted item(s) elided as off-topic for the question (items ${index + 1}–${end} of ${items.length})`,
      kind: 'relevance_filter',
      render: (marker) => `${headers.map((line) => `${line}\n`).join('')}${marker}${layout}`,
    });
    pieces.push(elision.replacement);
    handles.push(elision.handle);
    index = end;
  }
  return { text: pieces.join(''), handles, kept: kept.filter(Boolean).length };
}

/**
 * Keys of fresh pasted segments that sit under the user's own question (a fenced block, not
 * an agent's tagged observation): the question itself says which lines matter.
 */
function freshPastedUnderQuestion(request: ChatRequest, context: StrategyContext): Set<string> {
  const keys = new Set<string>();
  const segments = findToolOutputs(request);
  for (const segment of segments) {
    if (segment.messageIndex < context.freshStart || segment.source !== 'pasted' || segment.command !== undefined) continue;
    if (request.messages[segment.messageIndex]?.role !== 'user') continue;
    if (queryForPasted(request, segment, { text: '', source: 'none' }, segments).source === 'user') keys.add(segment.key);
  }
  return keys;
}

/** Longest item header kept in place of a dropped item. */
const MAX_HEADER_CHARS = 200;

/**
 * An item's first line, when the item has more below it and the line is short enough to stand
 * for it. A first line that only labels the item (`[2] kb-0410#0 · path · similarity 0.35`,
 * `Document 3:`) says nothing of what it holds: the title under it, a short line of prose,
 * stays with it, as a JSON item keeps its title field.
 */
function itemHeader(item: string): string | undefined {
  const fenced = fencedFileLabel(item);
  if (fenced !== undefined) return fenced;
  const lineEnd = item.indexOf('\n');
  if (lineEnd === -1 || item.slice(lineEnd).trim() === '') return undefined;
  const header = item.slice(0, lineEnd).trimEnd();
  if (header.length === 0 || header.length > MAX_HEADER_CHARS) return undefined;
  if (proseWords(header) >= TITLE_WORDS) return header;
  const nextEnd = item.indexOf('\n', lineEnd + 1);
  const title = item.slice(lineEnd + 1, nextEnd === -1 ? item.length : nextEnd).trim();
  const rest = nextEnd === -1 ? '' : item.slice(nextEnd).trim();
  return rest !== '' && title.length <= MAX_TITLE_CHARS && proseWords(title) >= TITLE_WORDS && !/[{:;]$/.test(title) ? `${header}\n${title}` : header;
}

/** Words of prose a line needs to say what an item holds. */
const TITLE_WORDS = 3;
/** Longest title line kept under a label line. */
const MAX_TITLE_CHARS = 160;

/** Words of prose in a line: letters only, not a path, an id or a number. */
function proseWords(line: string): number {
  let count = 0;
  for (const word of line.split(/\s+/)) if (/^[A-Za-z][a-z]{2,}[,.;:!?]?$/.test(word)) count++;
  return count;
}

/** Scores by the scorer, falling back to lexical ranking when the embedding model fails at run time. */
async function scoreSafely(scorer: RelevanceScorer, query: string, texts: readonly string[], context: StrategyContext, onFallback: () => void): Promise<number[]> {
  try {
    return await scorer.score(query, texts, context.signal);
  } catch (error) {
    if (context.signal.aborted || scorer.mode === 'lexical') throw error;
    context.logger.warn('embedding-failed', `Herald: relevance_filter fell back to lexical ranking: ${describeError(error)}`);
    onFallback();
    return scoreLexically(query, texts);
  }
}

/** Characters of every text in the request (messages and tool definitions), to price a cut against. */
function requestCharacters(request: ChatRequest): number {
  let total = 0;
  for (const message of request.messages) for (const part of message.parts) if (part.type === 'text') total += part.text.length;
  for (const tool of request.tools) total += (tool.description ?? '').length + JSON.stringify(tool.inputSchema ?? {}).length;
  return total;
}

/** Output that answers a retrieval is never filtered again: it would loop into its own marker. */
function isRetrieval(segment: ToolOutputSegment): boolean {
  if (segment.toolName !== undefined && /(^|_)retrieve$/i.test(segment.toolName)) return true;
  return segment.command !== undefined && /\bretrieve\b/i.test(segment.command) && /hr_[a-z2-7]{16}/.test(segment.command);
}

function lineCount(text: string): number {
  let lines = 1;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) lines++;
  return lines;
}
