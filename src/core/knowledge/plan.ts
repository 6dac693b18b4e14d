/**
 * Step 1: taking the task apart. A plan names the things the task mentions and what each
 * is, the deliverable, two or three facet searches, and hard constraints. It comes from the
 * host's model when there is one, otherwise from rules over the library's own names and
 * template titles. The plan only ever adds to the task: the task is searched as written too.
 */
import { z } from 'zod';
import type { Logger, ModelPort } from '../ports';
import { containsPhrase, type KnownName, type NameKind } from './names';
import type { Page } from './types';
import { describeError } from '../errors';

/** A name the task mentions and what it is. */
export interface PlannedName {
  readonly name: string;
  readonly kind: NameKind | 'other';
}

/** What the task is made of. */
export interface Plan {
  readonly names: readonly PlannedName[];
  /** What will be produced ("cold email"), when the task says. */
  readonly deliverable?: string;
  /** Short searches, each covering one facet of the task. */
  readonly searches: readonly string[];
  /** Hard constraints the task states ("under 100 words"). */
  readonly constraints: readonly string[];
  /** Where the plan came from. */
  readonly source: 'model' | 'rules';
}

const MAX_SEARCHES = 3;

const modelPlanSchema = z.object({
  names: z.array(z.object({ name: z.string().min(1), kind: z.enum(['competitor', 'product', 'persona', 'market', 'other']).catch('other') })).default([]),
  deliverable: z.string().nullish(),
  searches: z.array(z.string().min(1)).default([]),
  constraints: z.array(z.string().min(1)).default([]),
});

const PLAN_SYSTEM = 'You take a work task apart before a search of a company knowledge library. Answer with one JSON object and nothing else.';

/** The plan from the model, or from rules when there is no model or it fails or is slow. */
export async function makePlan(task: string, names: readonly KnownName[], pages: readonly Page[], model: ModelPort | undefined, timeoutMs: number, logger: Logger, signal?: AbortSignal): Promise<Plan> {
  const rules = rulesPlan(task, names, pages);
  if (!model) return rules;
  try {
    const answer = await withTimeout((inner) => model.complete({ system: PLAN_SYSTEM, prompt: planPrompt(task), maxTokens: 400, signal: inner }), timeoutMs, signal);
    const parsed = modelPlanSchema.parse(JSON.parse(extractJson(answer)));
    return {
      names: parsed.names.map((entry) => ({ name: entry.name.trim(), kind: entry.kind })),
      deliverable: parsed.deliverable?.trim() || undefined,
      searches: parsed.searches.map((search) => search.trim()).filter((search) => search.length > 0).slice(0, MAX_SEARCHES),
      constraints: parsed.constraints,
      source: 'model',
    };
  } catch (error) {
    logger.warn('plan-model-failed', `Herald: the plan model failed (${describeError(error)}); using the rules plan`);
    return rules;
  }
}

function planPrompt(task: string): string {
  return [
    `Task: ${task}`,
    '',
    'Return {"names": [{"name": "...", "kind": "competitor|product|persona|market|other"}], "deliverable": "what will be produced, or null",',
    '"searches": ["two or three short searches, each covering one facet of the task"], "constraints": ["hard constraints the task states"]}.',
    'Only names the task itself mentions. No prose.',
  ].join('\n');
}

/** A plan from rules: known names found in the task, a deliverable from template titles or common words, constraints by pattern. */
export function rulesPlan(task: string, names: readonly KnownName[], pages: readonly Page[]): Plan {
  const found: PlannedName[] = [];
  const seenPages = new Set<string>();
  // Longest names first, so "Levyline AutoFile" wins over "Levyline" for the same page.
  for (const known of [...names].sort((a, b) => b.name.length - a.name.length)) {
    if (seenPages.has(known.pageId) || !containsPhrase(task, known.name)) continue;
    seenPages.add(known.pageId);
    found.push({ name: known.name, kind: known.kind });
  }
  // In the order the task mentions them, so the facets read like the task.
  const lowerTask = task.toLowerCase();
  found.sort((a, b) => lowerTask.indexOf(a.name.toLowerCase()) - lowerTask.indexOf(b.name.toLowerCase()));
  const deliverable = findDeliverable(task, pages);
  const searches: string[] = [];
  if (deliverable) searches.push(deliverable);
  for (const name of found) if (searches.length < MAX_SEARCHES) searches.push(name.name);
  return { names: found, deliverable, searches, constraints: findConstraints(task), source: 'rules' };
}

const COMMON_DELIVERABLES = ['comparison page', 'cold email', 'follow-up email', 'email', 'proposal', 'quote', 'one-pager', 'call script', 'case study', 'blog post', 'reply', 'summary', 'landing page', 'slide deck'];

function findDeliverable(task: string, pages: readonly Page[]): string | undefined {
  const fromTemplates = pages
    .filter((page) => page.meta.type === 'template')
    .map((page) => page.meta.title.replace(/\btemplate\b/i, '').replace(/\s+/g, ' ').trim())
    .filter((title) => title.length > 0);
  const candidates = [...fromTemplates, ...COMMON_DELIVERABLES].sort((a, b) => b.length - a.length);
  return candidates.find((candidate) => containsPhrase(task, candidate))?.toLowerCase();
}

const CONSTRAINT = /\b(?:under|fewer than|less than|no more than|at most|at least|within|must|must not|never|don't|do not|only|without|in (?:english|german|french|spanish|dutch|italian|portuguese|japanese))\b[^.,;!?]*/gi;

function findConstraints(task: string): string[] {
  return [...task.matchAll(CONSTRAINT)].map((match) => match[0].trim()).filter((text) => text.split(/\s+/).length >= 2);
}

/** The first {...} block of a model's answer, tolerating code fences and chatter around it. */
export function extractJson(answer: string): string {
  const start = answer.indexOf('{');
  const end = answer.lastIndexOf('}');
  if (start < 0 || end <= start) throw new Error('no JSON object in the answer');
  return answer.slice(start, end + 1);
}

/** Runs `work` with an abort signal that fires after `timeoutMs` or when `outer` aborts. */
export async function withTimeout<T>(work: (signal: AbortSignal) => Promise<T>, timeoutMs: number, outer?: AbortSignal): Promise<T> {
  const controller = new AbortController();
  const abort = (): void => controller.abort();
  outer?.addEventListener('abort', abort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => {
      controller.abort();
      reject(new Error(`timed out after ${timeoutMs} ms`));
    }, timeoutMs);
  });
  try {
    return await Promise.race([work(controller.signal), timeout]);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener('abort', abort);
  }
}
