/**
 * The filter API: a question and candidate items in; each item cleaned by format, scored
 * 0–3, selected by threshold, duplicate check and budget; the kept items back in the order
 * they were sent, with a report of every decision.
 */
import { cleanContent, type ContentFormat } from '../content';
import type { Logger, ModelPort } from '../ports';
import type { Embedder } from '../relevance';
import { TokenCounter } from '../tokens/tokenCounter';
import { duplicateReason, fingerprint, type DuplicateFingerprint } from './duplicates';
import { judgeScores, ScoringUnavailableError, type JudgeOptions } from './judge';
import { scoreOnScale } from './lexicalScale';
import { scoreWithModel, type ModelScale } from './modelScale';
import { costOf, inputPrice, type PriceTable } from './prices';
import { BASE_THRESHOLDS, parseFilterRequest, type FilterRequest } from './request';
import { ScoreMemo } from './scoreMemo';
import { judgeQuality, nextOffset, type QualityVerdict, type ThresholdStore } from './thresholds';

export interface FilterDependencies {
  /** The judge: a language model that scores items. Without one, scoring is lexical. */
  readonly judge?: ModelPort;
  readonly judgeOptions?: JudgeOptions;
  /** Per-agent learned threshold offsets; without a store the base threshold applies. */
  readonly thresholds?: ThresholdStore;
  /** Scores reused within a conversation. */
  readonly scoreMemo?: ScoreMemo;
  /**
   * A retrieval model: without a judge, items are scored by words and meaning (modelScale.ts)
   * instead of words alone, and reworded duplicates are found by meaning.
   */
  readonly embedder?: Embedder;
  /** How meaning maps onto the 0–3 scale; default the shipped model's calibration. */
  readonly modelScale?: ModelScale;
  /** Input prices per million tokens; defaults to the published list prices. */
  readonly prices?: PriceTable;
  readonly tokens?: TokenCounter;
  /** When the request arrived (ms, `performance.now()` clock), for `latencyMs`. */
  readonly arrivedAt?: number;
  readonly logger?: Logger;
  readonly signal?: AbortSignal;
}

export type ItemDecision = 'kept' | 'low_relevance' | 'duplicate' | 'over_budget';

export interface FilterItemReport {
  readonly id: string;
  readonly decision: ItemDecision;
  /** Expected relevance on the 0–3 scale. */
  readonly score: number;
  readonly reason: string;
  /** For duplicates: the kept item it repeats. */
  readonly duplicateOf?: string;
  /** True when the score was reused from earlier in the conversation. */
  readonly reused: boolean;
  readonly cleaned: {
    readonly format: ContentFormat;
    readonly removed: readonly string[];
    readonly tokensSent: number;
    readonly tokensAfterCleanup: number;
  };
}

export interface FilterReport {
  readonly question: string;
  readonly aggressiveness: FilterRequest['aggressiveness'];
  /** Which signals scored the items: words alone, words and a retrieval model, or the judge. */
  readonly scoring: 'lexical' | 'fused' | 'judge';
  readonly scorer: string;
  readonly baseThreshold: number;
  /** Base threshold plus this agent's learned offset. */
  readonly threshold: number;
  readonly agentOffset: number;
  readonly budget: number | null;
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly model: string | null;
  /** US dollars for the input tokens, when the model's price is known. */
  readonly costBefore: number | null;
  readonly costAfter: number | null;
  readonly counts: Readonly<Record<ItemDecision, number>>;
  readonly timings: { readonly validateMs: number; readonly cleanupMs: number; readonly scoringMs: number; readonly selectionMs: number };
  readonly latencyMs: number;
}

export interface FilterResult {
  /** Kept items, cleaned, in the order they were sent. */
  readonly kept: readonly { readonly id: string; readonly content: string }[];
  /** Every item's decision, in the order sent. */
  readonly items: readonly FilterItemReport[];
  readonly report: FilterReport;
}

export async function filter(input: unknown, dependencies: FilterDependencies = {}): Promise<FilterResult> {
  const arrivedAt = dependencies.arrivedAt ?? performance.now();
  const tokens = dependencies.tokens ?? new TokenCounter();
  let mark = performance.now();
  const lap = (): number => {
    const now = performance.now();
    const elapsed = now - mark;
    mark = now;
    return round(elapsed);
  };
  const request = parseFilterRequest(input);
  const validateMs = lap();

  // 1. Cleanup, by format; plain text is never rewritten.
  const cleaned = request.candidates.map((candidate) => {
    const format = candidate.format === undefined || candidate.format === 'auto' ? undefined : candidate.format;
    const result = cleanContent(candidate.content, { format, question: request.question });
    return { id: candidate.id, content: result.text, format: result.format, removed: result.removed, tokensSent: tokens.count(candidate.content), tokensAfterCleanup: tokens.count(result.text) };
  });
  const cleanupMs = lap();

  // 2. Scoring: the judge when configured (and not refused), else the lexical scale.
  const useJudge = request.scoring !== 'lexical' && dependencies.judge !== undefined;
  if (request.scoring === 'judge' && !dependencies.judge) throw new ScoringUnavailableError('no judge model is configured');
  const mode = useJudge ? 'judge' : dependencies.embedder ? 'fused' : 'lexical';
  const memo = dependencies.scoreMemo;
  const scores = new Array<{ score: number; reason: string; reused: boolean } | undefined>(cleaned.length);
  const toScore: number[] = [];
  cleaned.forEach((item, index) => {
    const known = request.conversation && memo ? memo.get(memo.key(request.conversation, mode, item.content)) : undefined;
    if (known) scores[index] = { ...known, reused: true };
    else toScore.push(index);
  });
  if (toScore.length > 0) {
    if (useJudge) {
      const verdicts = await judgeScores(dependencies.judge!, request.question, toScore.map((index) => ({ id: cleaned[index]!.id, content: cleaned[index]!.content })), { ...dependencies.judgeOptions, signal: dependencies.signal });
      for (const index of toScore) scores[index] = { ...verdicts.get(cleaned[index]!.id)!, reused: false };
    } else {
      const texts = toScore.map((index) => cleaned[index]!.content);
      const lexical = dependencies.embedder ? await scoreWithModel(request.question, texts, dependencies.embedder, dependencies.modelScale, dependencies.signal) : scoreOnScale(request.question, texts);
      toScore.forEach((index, position) => { scores[index] = { ...lexical[position]!, reused: false }; });
    }
    if (request.conversation && memo) {
      for (const index of toScore) memo.set(memo.key(request.conversation, mode, cleaned[index]!.content), { score: scores[index]!.score, reason: scores[index]!.reason });
    }
  }
  const scoringMs = lap();

  // 3. Selection from the highest score down (ties keep the order sent).
  const baseThreshold = BASE_THRESHOLDS[request.aggressiveness];
  const agentOffset = request.agent && dependencies.thresholds ? dependencies.thresholds.get(request.agent) : 0;
  const threshold = round(baseThreshold + agentOffset);
  const order = cleaned.map((_, index) => index).sort((a, b) => scores[b]!.score - scores[a]!.score || a - b);
  const vectors = dependencies.embedder ? await dependencies.embedder.embed(cleaned.map((item) => item.content), dependencies.signal) : undefined;
  const decisions = new Array<{ decision: ItemDecision; reason: string; duplicateOf?: string }>(cleaned.length);
  const keptPrints: { id: string; print: DuplicateFingerprint }[] = [];
  let used = 0;
  for (const index of order) {
    const item = cleaned[index]!;
    const { score, reason } = scores[index]!;
    if (score < threshold) {
      decisions[index] = { decision: 'low_relevance', reason: `${reason}; score ${score} is below the threshold ${threshold}` };
      continue;
    }
    const print = fingerprint(item.content, vectors?.[index]);
    const repeated = keptPrints.map((kept) => ({ kept, why: duplicateReason(print, kept.print) })).find((match) => match.why !== undefined);
    if (repeated) {
      decisions[index] = { decision: 'duplicate', reason: `repeats kept item "${repeated.kept.id}": ${repeated.why}`, duplicateOf: repeated.kept.id };
      continue;
    }
    if (request.max_tokens !== undefined && used + item.tokensAfterCleanup > request.max_tokens) {
      decisions[index] = { decision: 'over_budget', reason: `${reason}; its ${item.tokensAfterCleanup} tokens would take the total past the budget of ${request.max_tokens} (${used} used)` };
      continue;
    }
    used += item.tokensAfterCleanup;
    keptPrints.push({ id: item.id, print });
    decisions[index] = { decision: 'kept', reason };
  }
  const selectionMs = lap();

  // 4. The report.
  const items: FilterItemReport[] = cleaned.map((item, index) => ({
    id: item.id,
    decision: decisions[index]!.decision,
    score: scores[index]!.score,
    reason: decisions[index]!.reason,
    duplicateOf: decisions[index]!.duplicateOf,
    reused: scores[index]!.reused,
    cleaned: { format: item.format, removed: item.removed, tokensSent: item.tokensSent, tokensAfterCleanup: item.tokensAfterCleanup },
  }));
  const tokensBefore = cleaned.reduce((sum, item) => sum + item.tokensSent, 0);
  const price = inputPrice(request.model, dependencies.prices);
  const counts: Record<ItemDecision, number> = { kept: 0, low_relevance: 0, duplicate: 0, over_budget: 0 };
  for (const item of items) counts[item.decision]++;
  return {
    kept: cleaned.filter((_, index) => decisions[index]!.decision === 'kept').map((item) => ({ id: item.id, content: item.content })),
    items,
    report: {
      question: request.question,
      aggressiveness: request.aggressiveness,
      scoring: mode,
      scorer: useJudge ? dependencies.judge!.name : dependencies.embedder ? `fused: lexical (BM25 + question-word coverage) + model ${dependencies.embedder.name}` : 'lexical (BM25 + question-word coverage)',
      baseThreshold,
      threshold,
      agentOffset: round(agentOffset),
      budget: request.max_tokens ?? null,
      tokensBefore,
      tokensAfter: used,
      model: request.model ?? null,
      costBefore: nullable(costOf(tokensBefore, price)),
      costAfter: nullable(costOf(used, price)),
      counts,
      timings: { validateMs, cleanupMs, scoringMs, selectionMs },
      latencyMs: round(performance.now() - arrivedAt),
    },
  };
}

/**
 * The quality check, run after the response so it adds no latency: asks the model whether
 * the kept context was enough and moves the agent's threshold. Returns the verdict, or
 * undefined when there is nothing to learn (no agent, no store, or switched off).
 */
export async function runQualityCheck(result: FilterResult, agent: string | undefined, model: ModelPort | undefined, thresholds: ThresholdStore | undefined, signal?: AbortSignal): Promise<QualityVerdict | undefined> {
  if (!agent || !model || !thresholds) return undefined;
  const verdict = await judgeQuality(model, result.report.question, result.kept, signal);
  thresholds.set(agent, nextOffset(thresholds.get(agent), verdict));
  return verdict;
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}

function nullable(value: number | undefined): number | null {
  return value === undefined ? null : Math.round(value * 1e8) / 1e8;
}
