/**
 * The judge: one call per request that answers yes/no questions with probabilities. For a
 * section, would someone doing the task use it, and is it specifically about a different
 * competitor, product, market or audience than the task names; for a table row only the
 * second; for a pack, is the task that kind of work. Verdicts confirmed twice for the same
 * task are remembered until a page involved changes or two weeks pass.
 */
import { z } from 'zod';
import { sha256 } from '../pipeline/hash';
import type { Logger, ModelPort } from '../ports';
import { extractJson, withTimeout, type PlannedName } from './plan';

/** off: never asked; shadow: asked and logged, not applied; gate: its answers apply. */
export type JudgeMode = 'off' | 'shadow' | 'gate';

/** Something the judge is asked about. */
export interface JudgeCandidate {
  /** A section id, a row id, or `pack:<name>`. */
  readonly id: string;
  readonly kind: 'section' | 'row' | 'pack';
  /** Page title and heading path, or the pack's name. */
  readonly label: string;
  /** The text (for rows with the table's description; for packs the description and phrasings). */
  readonly text: string;
  /** Hash of the page (or pack) it comes from: a changed page forgets remembered verdicts. */
  readonly contentHash: string;
}

/** Probabilities in [0, 1]. For packs `use` is "the task is this kind of work". */
export interface Verdict {
  readonly use: number;
  readonly different: number;
}

/** A verdict and where it came from. */
export interface JudgedVerdict extends Verdict {
  readonly source: 'model' | 'memory';
  /** The resulting decision. */
  readonly keep: boolean;
}

/** Whether a verdict keeps its candidate: rows only answer the second question. */
export function verdictKeeps(kind: JudgeCandidate['kind'], verdict: Verdict): boolean {
  if (kind === 'row') return verdict.different < 0.5;
  if (kind === 'pack') return verdict.use >= 0.5;
  return verdict.use >= 0.5 && verdict.different < 0.5;
}

const REMEMBER_FOR_MS = 14 * 24 * 60 * 60 * 1000;

interface MemoryEntry {
  readonly verdict: Verdict;
  readonly keep: boolean;
  readonly contentHash: string;
  readonly confirmations: number;
  /** Epoch milliseconds of the last confirmation. */
  readonly confirmedAt: number;
}

/** Remembered verdicts, keyed by task and candidate. Serializable, so a host can keep it across sessions. */
export class JudgeMemory {
  private readonly entries = new Map<string, MemoryEntry>();

  constructor(private readonly clock: () => Date = () => new Date()) {}

  /** A verdict confirmed twice, for an unchanged page, confirmed in the last two weeks. */
  lookup(task: string, candidate: JudgeCandidate): Verdict | undefined {
    const entry = this.entries.get(memoryKey(task, candidate.id));
    if (!entry || entry.confirmations < 2 || entry.contentHash !== candidate.contentHash) return undefined;
    if (this.clock().getTime() - entry.confirmedAt > REMEMBER_FOR_MS) return undefined;
    return entry.verdict;
  }

  /** Records a fresh verdict: the same decision again confirms it; a different one starts over. */
  record(task: string, candidate: JudgeCandidate, verdict: Verdict): void {
    const key = memoryKey(task, candidate.id);
    const keep = verdictKeeps(candidate.kind, verdict);
    const previous = this.entries.get(key);
    const same = previous !== undefined && previous.keep === keep && previous.contentHash === candidate.contentHash;
    this.entries.set(key, { verdict, keep, contentHash: candidate.contentHash, confirmations: same ? previous.confirmations + 1 : 1, confirmedAt: this.clock().getTime() });
  }

  get size(): number {
    return this.entries.size;
  }

  toJSON(): { version: 1; entries: [string, MemoryEntry][] } {
    return { version: 1, entries: [...this.entries] };
  }

  static fromJSON(data: unknown, clock?: () => Date): JudgeMemory {
    const memory = new JudgeMemory(clock);
    const parsed = z.object({ version: z.literal(1), entries: z.array(z.tuple([z.string(), z.object({ verdict: z.object({ use: z.number(), different: z.number() }), keep: z.boolean(), contentHash: z.string(), confirmations: z.number(), confirmedAt: z.number() })])) }).parse(data);
    for (const [key, entry] of parsed.entries) memory.entries.set(key, entry);
    return memory;
  }
}

function memoryKey(task: string, candidateId: string): string {
  return `${sha256(task.trim().toLowerCase())}:${candidateId}`;
}

const answerSchema = z.object({
  verdicts: z.array(z.object({ id: z.string(), use: z.number().min(0).max(1).optional(), different: z.number().min(0).max(1).optional(), applies: z.number().min(0).max(1).optional() })),
});

const JUDGE_SYSTEM = 'You decide which reference material belongs in the context of a work task. Answer with one JSON object and nothing else.';

/** Asks the judge about every candidate not already remembered, in one call. Throws when the model fails. */
export async function judge(task: string, names: readonly PlannedName[], candidates: readonly JudgeCandidate[], model: ModelPort, memory: JudgeMemory | undefined, timeoutMs: number, logger: Logger, signal?: AbortSignal): Promise<Map<string, JudgedVerdict>> {
  const results = new Map<string, JudgedVerdict>();
  const asked: JudgeCandidate[] = [];
  for (const candidate of candidates) {
    const remembered = memory?.lookup(task, candidate);
    if (remembered) results.set(candidate.id, { ...remembered, source: 'memory', keep: verdictKeeps(candidate.kind, remembered) });
    else asked.push(candidate);
  }
  if (asked.length === 0) return results;
  const numbered = new Map(asked.map((candidate, index) => [`c${index + 1}`, candidate]));
  const answer = await withTimeout((inner) => model.complete({ system: JUDGE_SYSTEM, prompt: judgePrompt(task, names, numbered), maxTokens: 60 + 30 * asked.length, signal: inner }), timeoutMs, signal);
  const parsed = answerSchema.parse(JSON.parse(extractJson(answer)));
  for (const entry of parsed.verdicts) {
    const candidate = numbered.get(entry.id);
    if (!candidate) continue;
    const verdict: Verdict = candidate.kind === 'pack' ? { use: entry.applies ?? entry.use ?? 0, different: 0 } : { use: entry.use ?? 1, different: entry.different ?? 0 };
    memory?.record(task, candidate, verdict);
    results.set(candidate.id, { ...verdict, source: 'model', keep: verdictKeeps(candidate.kind, verdict) });
  }
  const missing = asked.filter((candidate) => !results.has(candidate.id)).length;
  if (missing > 0) logger.warn('judge-answer-incomplete', `Herald: the judge skipped ${missing} of ${asked.length} candidates; they are decided by the heuristics`);
  return results;
}

function judgePrompt(task: string, names: readonly PlannedName[], numbered: ReadonlyMap<string, JudgeCandidate>): string {
  const lines = [`Task: ${task}`];
  if (names.length > 0) lines.push(`The task names: ${names.map((name) => `${name.name} (${name.kind})`).join(', ')}`);
  lines.push('', 'Candidates:');
  for (const [id, candidate] of numbered) {
    const text = candidate.text.length > 700 ? `${candidate.text.slice(0, 700)}…` : candidate.text;
    lines.push(`[${id}] (${candidate.kind}) ${candidate.label}`, text, '');
  }
  lines.push(
    'For each candidate give probabilities from 0 to 1:',
    '- section: "use" = someone doing this task would use it; "different" = it is specifically about a different competitor, product, market or audience than the task names.',
    '- row (one row of a table, shown with the table\'s description): only "different".',
    '- pack: "applies" = the task really is the kind of work the pack is for.',
    'Answer {"verdicts": [{"id": "c1", "use": 0.9, "different": 0.1}, {"id": "c2", "applies": 0.2}]}.',
  );
  return lines.join('\n');
}
