/**
 * `get_context`: what an agent should know for a task, as a Markdown bundle sized to a
 * token budget, and JSON saying why every page came. The steps follow the product
 * description: plan, rules, pinned pages, packs, pages matched by what they are for,
 * search, focus (closeness window or judge), result.
 */
import { z } from 'zod';
import { silentLogger, type Logger, type ModelPort } from '../ports';
import type { Embedder } from '../relevance/types';
import { countTokens } from '../tokens';
import { judge, type JudgeCandidate, type JudgedVerdict, type JudgeMemory, type JudgeMode } from './judge';
import type { Library } from './library';
import { containsPhrase, pageKind } from './names';
import { resolveOptions, type KnowledgeOptionsInput } from './options';
import { SHIPPED_MODEL_NAME } from '../relevance/embedding/bundledModel';
import { phraseCoverage, phraseMeanings } from './phrases';
import { Assembly } from './assembly';
import { makePlan, type Plan } from './plan';
import { renderHeader, renderNothingFound } from './render';
import type { ContextResult, InclusionReason } from './result';
import { byFused, findTaskTags, matchFolders, searchSections, type Candidate } from './search';
import { searchTermSet } from './searchTokens';
import { rowNaming } from './tableNames';
import type { SearchUnit } from './sectionIndex';
import type { Pack, Page } from './types';
import { isoDay, isVisible, type Audience } from './visibility';
import { describeError } from '../errors';

/** The arguments of get_context, as the tool and the CLI take them. */
export const getContextInputSchema = z.strictObject({
  /** What the agent is about to do, in plain words. */
  task: z.string().trim().min(1, 'task is required'),
  /** The budget in tokens, 1,000 to 30,000. */
  max_tokens: z.number().int().min(1000).max(30000).default(12000),
  /** Apply this pack instead of matching packs to the task. */
  pack: z.string().trim().min(1).optional(),
  /** Only sections of pages with these tags. */
  tags: z.array(z.string().trim().min(1)).optional(),
  /** Only material from this folder and its subfolders. */
  folder: z.string().trim().min(1).optional(),
});

/** get_context's arguments as a caller gives them. */
export type GetContextInput = z.input<typeof getContextInputSchema>;

/** What the host provides to get_context. All optional. */
export interface GetContextDependencies {
  /** The host's language model, for the plan (and the judge when `judgeModel` is absent). */
  readonly model?: ModelPort;
  /** A small fast model for the judge; defaults to `model`. */
  readonly judgeModel?: ModelPort;
  /** off | shadow | gate; defaults to gate when a judge model is available, else off. */
  readonly judgeMode?: JudgeMode;
  /** Remembered verdicts; without it nothing is remembered. */
  readonly judgeMemory?: JudgeMemory;
  /** Ranks sections by meaning when given (Herald's shipped model only with `options.shippedModelMeaning`). */
  readonly embedder?: Embedder;
  /** The connection's user: their private notes may come back. */
  readonly viewer?: string;
  /** Folders the connection may see; all when absent. */
  readonly allowedFolders?: readonly string[];
  /** The clock (for expiry and judge memory). */
  readonly now?: () => Date;
  readonly logger?: Logger;
  /** Tuning; see {@link KnowledgeOptions}. */
  readonly options?: KnowledgeOptionsInput;
  readonly signal?: AbortSignal;
}

/** How close in meaning a phrasing must be to match, by default: see {@link KnowledgeOptions.meaningMatch}. */
const SHIPPED_MODEL_MEANING_MATCH = 0.45;
const DEFAULT_MEANING_MATCH = 0.8;

/** Below this many tokens of room, no section or row is worth trying. */
const MIN_USEFUL_TOKENS = 12;

/** Builds the bundle for one task. Throws an Error naming the problem when the input is invalid. */
export async function getContext(library: Library, rawInput: GetContextInput, dependencies: GetContextDependencies = {}): Promise<ContextResult> {
  const parsedInput = getContextInputSchema.safeParse(rawInput);
  if (!parsedInput.success) throw new Error(`Herald: invalid get_context input: ${parsedInput.error.issues.map((issue) => `${issue.path.join('.') || 'input'}: ${issue.message}`).join('; ')}`);
  const input = parsedInput.data;
  const options = resolveOptions(dependencies.options);
  const logger = dependencies.logger ?? silentLogger;
  const now = dependencies.now?.() ?? new Date();
  const audience: Audience = { viewer: dependencies.viewer, allowedFolders: dependencies.allowedFolders, folder: input.folder, tags: input.tags, today: isoDay(now) };
  const visible = library.pages.filter((page) => isVisible(page, audience));
  const visibleIds = new Set(visible.map((page) => page.id));
  const embedder = meaningEmbedder(dependencies.embedder, options.shippedModelMeaning);
  const judgeModel = dependencies.judgeModel ?? dependencies.model;
  const judgeMode: JudgeMode = judgeModel ? (dependencies.judgeMode ?? 'gate') : 'off';

  // Step 1: the plan.
  const visibleNames = library.names.filter((name) => visibleIds.has(name.pageId));
  const plan = await makePlan(input.task, visibleNames, visible, dependencies.model, options.planTimeoutMs, logger, dependencies.signal);
  const taskTerms = searchTermSet(input.task);
  for (const name of plan.names) if (name.kind !== 'other') taskTerms.add(name.kind);
  const taskTags = findTaskTags(input.task, visible);

  // Step 6 runs early, over everything visible but rules, so the one judge call can cover packs and sections together.
  const queries = [input.task, ...plan.searches.filter((search) => search.trim().toLowerCase() !== input.task.trim().toLowerCase())];
  const candidates = await searchSections({
    library,
    allowed: (unit) => visibleIds.has(unit.pageId) && library.page(unit.pageId)!.meta.type !== 'rule',
    visiblePages: visible,
    queries,
    names: plan.names,
    taskTerms,
    taskTags: new Set(taskTags),
    liftedFolders: matchFolders(library, taskTerms, options.folderMatch),
    options,
    embedder,
    signal: dependencies.signal,
  });

  // Packs: the named one alone, or those whose phrasings the task comes close to.
  const goodForPhrases = [...library.packs.flatMap((pack) => pack.goodFor), ...visible.flatMap((page) => page.meta.good_for)];
  const meaning = embedder ? await phraseMeanings(embedder, input.task, goodForPhrases, dependencies.signal) : undefined;
  const meaningMatch = options.meaningMatch ?? (embedder?.name.startsWith(SHIPPED_MODEL_NAME) ? SHIPPED_MODEL_MEANING_MATCH : DEFAULT_MEANING_MATCH);
  // By words, or by meaning when an embedder is given and the phrasing is close enough.
  const phraseScore = (phrase: string): number => {
    const lexical = phraseCoverage(taskTerms, phrase);
    const similarity = meaning?.get(phrase) ?? 0;
    if (similarity < meaningMatch) return lexical;
    // Close enough in meaning is a match: the meaning threshold maps onto the word-match threshold, a perfect match onto 1.
    return Math.max(lexical, options.useMatch + ((1 - options.useMatch) * (similarity - meaningMatch)) / Math.max(1e-9, 1 - meaningMatch));
  };
  const packCoverage = new Map(library.packs.map((pack) => [pack.name, Math.max(0, ...pack.goodFor.map(phraseScore))]));
  let packCandidates: Pack[];
  if (input.pack !== undefined) {
    const named = library.packs.find((pack) => pack.name.toLowerCase() === input.pack!.toLowerCase());
    if (!named) throw new Error(`Herald: no pack named "${input.pack}"; the library has ${library.packs.length > 0 ? library.packs.map((pack) => `"${pack.name}"`).join(', ') : 'no packs'}`);
    packCandidates = [named];
  } else {
    packCandidates = library.packs.filter((pack) => packCoverage.get(pack.name)! > 0);
  }

  const differentNamedThing = differentNamedThingTest(library, plan);
  const judgeInput = buildJudgeCandidates(library, packCandidates, input.pack !== undefined, [...candidates.values()].filter((candidate) => candidate.related).sort(byFused).slice(0, options.judgeCandidates));
  let verdicts = new Map<string, JudgedVerdict>();
  let judgeFailure: string | undefined;
  if (judgeMode !== 'off' && judgeModel && judgeInput.length > 0) {
    try {
      verdicts = await judge(input.task, plan.names, judgeInput, judgeModel, dependencies.judgeMemory, options.judgeTimeoutMs, logger, dependencies.signal);
    } catch (error) {
      judgeFailure = describeError(error);
      logger.warn('judge-failed', `Herald: the judge failed (${judgeFailure}); the heuristics decide this request`);
    }
  }
  const gate = judgeMode === 'gate' && judgeFailure === undefined;

  const appliedPacks = input.pack !== undefined
    ? packCandidates
    : packCandidates.filter((pack) => {
      const verdict = verdicts.get(`pack:${pack.name}`);
      return gate && verdict ? verdict.keep : packCoverage.get(pack.name)! >= options.packMatch;
    });

  // Step 2: rules, in full, never cut.
  const assembly = new Assembly(input.max_tokens, options, dependencies.viewer);
  assembly.setHeader(renderHeader(library.settings, appliedPacks.map((pack) => pack.name), taskTags));
  const rules = visible.filter((page) => page.meta.type === 'rule').sort((a, b) => a.id.localeCompare(b.id));
  for (const rule of rules) assembly.addRule(rule);

  // Step 3: pinned pages; step 4: pack pages; step 5: read-whole pages matched by what they are for.
  for (const page of visible.filter((candidate) => candidate.meta.pinned && candidate.meta.type !== 'rule').sort((a, b) => a.id.localeCompare(b.id))) assembly.addWhole(page, 'pinned');
  const whenRelevant = new Set<string>();
  for (const pack of appliedPacks) {
    for (const id of pack.always) if (visibleIds.has(id)) assembly.addWhole(library.page(id)!, 'recipe');
    for (const id of pack.whenRelevant) if (visibleIds.has(id)) whenRelevant.add(id);
  }
  const usePages = visible
    .filter((page) => page.meta.type !== 'rule' && !differentNamedThing.page(page))
    .map((page) => ({ page, coverage: Math.max(0, ...page.meta.good_for.map(phraseScore)) }))
    .filter((entry) => entry.coverage >= options.useMatch)
    .sort((a, b) => b.coverage - a.coverage || a.page.id.localeCompare(b.page.id))
    .slice(0, options.usePages);
  const protectedUnits = new Map<string, Candidate>();
  for (const { page } of usePages) {
    if (page.readWhole) {
      assembly.addWhole(page, 'use');
      continue;
    }
    for (const candidate of bestTwoSections(library, page, candidates)) protectedUnits.set(candidate.unit.id, candidate);
  }

  // Step 7: focus.
  const wouldDrop: string[] = [];
  const kept: { candidate: Candidate; reason: InclusionReason; surety: number; tier: number }[] = [];
  const pool = new Map([...candidates].filter(([, candidate]) => candidate.related));
  for (const [id, candidate] of protectedUnits) pool.set(id, candidate);
  // Rows are units: the rows about the thing the task names come as named sections do; rows
  // about another thing of that kind never come, whatever the judge says.
  const naming = rowNaming(library, [input.task, ...plan.names.map((name) => name.name)].join('\n'));
  for (const rowId of naming.namedRows) {
    const unit = library.unit(rowId);
    if (!unit || !visibleIds.has(unit.pageId) || library.page(unit.pageId)!.meta.type === 'rule') continue;
    const candidate = candidates.get(rowId) ?? { unit, reason: 'search' as const, fused: 0, closeness: 0, related: true, holdsName: true, ranks: {} };
    candidate.holdsName = true;
    candidate.related = true;
    pool.set(rowId, candidate);
  }
  for (const candidate of pool.values()) {
    if (assembly.hasWhole(candidate.unit.pageId)) continue;
    if (naming.otherRows.has(candidate.unit.id)) continue;
    const isProtected = protectedUnits.has(candidate.unit.id);
    const heuristic = isProtected || (!differentNamedThing.unit(candidate.unit) && (whenRelevant.has(candidate.unit.pageId) || candidate.holdsName || candidate.closeness >= options.closenessWindow));
    const verdict = verdicts.get(candidate.unit.id);
    if (verdict && !verdict.keep && judgeMode !== 'off') wouldDrop.push(candidate.unit.id);
    const keep = gate && verdict ? verdict.keep : heuristic;
    if (!keep) continue;
    const reason: InclusionReason = isProtected ? 'use' : whenRelevant.has(candidate.unit.pageId) && candidate.reason === 'search' ? 'recipe' : candidate.reason;
    const surety = gate && verdict ? verdict.use * (1 - verdict.different) : 0;
    kept.push({ candidate, reason, surety, tier: isProtected ? 0 : 1 });
  }
  // A table is a list of facts: when some of its rows are kept, or the task names one of its
  // rows' things, the rows stand in for the whole section (a long price table never comes
  // whole for one plan's price).
  const sectionsWithRows = new Set(kept.filter((entry) => entry.candidate.unit.kind === 'row').map((entry) => entry.candidate.unit.sectionId));
  for (const rowId of [...naming.namedRows, ...naming.otherRows]) {
    const unit = library.unit(rowId);
    if (unit) sectionsWithRows.add(unit.sectionId);
  }
  for (let index = kept.length - 1; index >= 0; index--) {
    const unit = kept[index]!.candidate.unit;
    if (unit.kind === 'section' && sectionsWithRows.has(unit.id)) kept.splice(index, 1);
  }
  if (judgeMode === 'shadow' && verdicts.size > 0) logger.info('judge-shadow', `Herald: judge (shadow) answered ${verdicts.size} questions; it would drop ${wouldDrop.length} kept candidates`);
  kept.sort((a, b) => a.tier - b.tier || b.surety - a.surety || byFused(a.candidate, b.candidate));

  // Sections fill the rest of the budget; a read-whole page comes whole or not at all.
  for (const entry of kept) {
    const room = assembly.room();
    // Once the budget is spent, nothing more can fit; and a section bigger than the room left is skipped unrendered.
    if (room < MIN_USEFUL_TOKENS) break;
    const unit = entry.candidate.unit;
    if (unit.kind === 'section' && (library.page(unit.pageId)!.sections.find((section) => section.id === unit.id)?.tokens ?? 0) > room) continue;
    const page = library.page(entry.candidate.unit.pageId)!;
    if (page.readWhole) assembly.addWhole(page, entry.reason, false);
    else assembly.addExcerpt(page, entry.candidate, entry.reason, verdicts.get(entry.candidate.unit.id));
  }

  // Rules and pinned pages come whatever the task; only what the task itself matched counts as found.
  const nothingFound = kept.length === 0 && usePages.length === 0 && appliedPacks.length === 0;
  const nearest = nothingFound ? nearestPages(library, candidates, visible) : [];
  if (nothingFound) logger.info('nothing-found', `Herald: nothing found for a get_context request; nearest pages: ${nearest.map((page) => page.id).join(', ') || 'none'}`);
  const markdown = assembly.render(nothingFound ? renderNothingFound(nearest) : undefined);
  return {
    markdown,
    tokens: countTokens(markdown),
    maxTokens: input.max_tokens,
    plan,
    packs: appliedPacks.map((pack) => pack.name),
    tags: taskTags,
    pages: assembly.pages(),
    nothingFound,
    nearest: nearest.map((page) => ({ page_id: page.id, title: page.meta.title })),
    rulesOverBudget: assembly.rulesOverBudget,
    signals: embedder ? `words + meaning (${embedder.name})` : 'words',
    judge: { mode: judgeMode, asked: verdicts.size, failed: judgeFailure, wouldDrop },
  };
}

/**
 * The embedder the library ranks by meaning with: a user's model always; Herald's shipped model
 * only when `shippedModelMeaning` asks for it (see {@link KnowledgeOptions.shippedModelMeaning}:
 * on the library it brought unrelated pages and found no reworded page that words missed).
 */
function meaningEmbedder(embedder: Embedder | undefined, shippedModelMeaning: boolean): Embedder | undefined {
  if (!embedder) return undefined;
  return embedder.name.startsWith(SHIPPED_MODEL_NAME) && !shippedModelMeaning ? undefined : embedder;
}

/**
 * Without a judge: a page about one named thing (a competitor, persona, market, product)
 * is dropped when the plan names another thing of that kind and not this one, unless the
 * section itself mentions a name the task gave; a template is dropped when the task names
 * a different deliverable.
 */
function differentNamedThingTest(library: Library, plan: Plan): { page: (page: Page) => boolean; unit: (unit: SearchUnit) => boolean } {
  const namedPages = new Set<string>();
  const namedKinds = new Set<string>();
  for (const planned of plan.names) {
    for (const known of library.names) {
      if (known.name.toLowerCase() !== planned.name.toLowerCase()) continue;
      namedPages.add(known.pageId);
      namedKinds.add(known.kind);
    }
    if (planned.kind !== 'other') namedKinds.add(planned.kind);
  }
  const deliverable = plan.deliverable;
  const differentPage = (page: Page): boolean => {
    // A template for another deliverable reads like the right one but shapes the wrong document.
    if (page.meta.type === 'template' && deliverable !== undefined) {
      return ![page.meta.title, ...page.meta.good_for].some((phrase) => containsPhrase(phrase, deliverable));
    }
    const kind = pageKind(page);
    return kind !== undefined && namedKinds.has(kind) && !namedPages.has(page.id);
  };
  return {
    page: differentPage,
    unit: (unit) => differentPage(library.page(unit.pageId)!) && !plan.names.some((name) => containsPhrase(`${unit.heading}\n${unit.text}`, name.name)),
  };
}

function buildJudgeCandidates(library: Library, packs: readonly Pack[], packNamed: boolean, candidates: readonly Candidate[]): JudgeCandidate[] {
  const list: JudgeCandidate[] = [];
  if (!packNamed) {
    for (const pack of packs) list.push({ id: `pack:${pack.name}`, kind: 'pack', label: `Pack "${pack.name}"`, text: `${pack.description}\nGood for: ${pack.goodFor.join('; ')}`, contentHash: JSON.stringify(pack) });
  }
  for (const candidate of candidates) {
    const page = library.page(candidate.unit.pageId)!;
    const text = candidate.unit.kind === 'row' ? `${candidate.unit.heading}\n${candidate.unit.text}` : candidate.unit.text;
    list.push({ id: candidate.unit.id, kind: candidate.unit.kind, label: `"${page.meta.title}" (${page.meta.type}) › ${candidate.unit.heading}`, text, contentHash: page.hash });
  }
  return list;
}

/** A page's two best sections by search, else its first two. */
function bestTwoSections(library: Library, page: Page, candidates: ReadonlyMap<string, Candidate>): Candidate[] {
  const sections = page.sections.map((section) => candidates.get(section.id) ?? { unit: library.unit(section.id)!, reason: 'search' as const, fused: 0, closeness: 0, related: true, holdsName: false, ranks: {} });
  return [...sections].sort((a, b) => b.fused - a.fused || a.unit.id.localeCompare(b.unit.id)).slice(0, 2);
}

function nearestPages(library: Library, candidates: ReadonlyMap<string, Candidate>, visible: readonly Page[]): Page[] {
  const visibleIds = new Set(visible.map((page) => page.id));
  const pages: Page[] = [];
  for (const candidate of [...candidates.values()].sort(byFused)) {
    const page = library.page(candidate.unit.pageId)!;
    if (visibleIds.has(page.id) && !pages.includes(page)) pages.push(page);
    if (pages.length === 3) break;
  }
  return pages;
}

export type { ContextPage, ContextResult, ContextSection, InclusionReason } from './result';
