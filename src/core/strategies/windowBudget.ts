/**
 * window_budget: when the conversation is over its token budget, crops the least useful
 * middle of it until it fits. The first setup messages and the recent ones stay; the middle
 * is split into units (an assistant message with the tool results or observations that answer
 * it, so a call and its result go together) and scored by relevance to the latest turn ×
 * recency; the lowest-scoring units are cropped first: each text becomes a marker and the
 * original is stashed. The user's own words are never cropped, nor units reporting failures.
 *
 * The budget is `maxTokens` when set, else `windowShare` (95%) of the model's window the host
 * reports; without either the strategy does nothing. Token counts come from the real tokenizer.
 *
 * Cache-safety. Cropping starts after the cached prefix: undecided history is cropped first
 * (the runner memoizes that decision). Only when that is not enough does it crop inside the
 * frozen prefix (hence `rewritesFrozen`); those crops are pinned by message hash in the
 * session state and replayed byte for byte on every later turn, and each crop event goes
 * down to `cropTarget` of the budget so the next turns fit without cropping again.
 */
import type { z } from 'zod';
import { findToolOutputs } from '../chat/toolOutput';
import type { ChatMessage, ChatRequest } from '../chat/types';
import { canonicalJson, sha256 } from '../pipeline/hash';
import type { Strategy, StrategyContext, StrategyResult } from '../pipeline/types';
import { applyCrop, conversationUnits, planCrop, planTexts, type ConversationUnit } from '../relevance/messageCrop';
import { loadScorerFor, type ScorerSource } from '../relevance/scorerSource';
import { queryForLatestTurn } from '../relevance/turnQuery';
import type { RelevanceScorer } from '../relevance/types';
import type { StrategyEnvironment } from './environment';
import { optionDefaults } from '../pipeline/optionSchema';
import { WINDOW_BUDGET_OPTIONS } from './options/windowBudgetOptions';

/** Options of window_budget, as its schema in `options/` declares them (type, default, bounds, description). */
export type WindowBudgetOptions = Readonly<z.output<typeof WINDOW_BUDGET_OPTIONS>>;

export const WINDOW_BUDGET_DEFAULTS: WindowBudgetOptions = optionDefaults(WINDOW_BUDGET_OPTIONS);

/** Session-state key of the frozen messages cropped on earlier turns (position-and-content hashes). */
const PINNED_CROPS = 'cropped-messages';

export function createWindowBudget(environment: StrategyEnvironment = {}): Strategy {
  const scorers = loadScorerFor(environment);
  return {
    id: 'window_budget',
    // Self-gating: it acts only when a budget is known and exceeded.
    defaultEnabled: true,
    kind: 'transform',
    rewritesFrozen: true,
    defaults: { ...WINDOW_BUDGET_DEFAULTS },
    optionSchema: WINDOW_BUDGET_OPTIONS,
    apply: (request, context) => fitWindow(request, context, readOptions(context.options), scorers),
  };
}

function readOptions(options: Readonly<Record<string, unknown>>): WindowBudgetOptions {
  const read: Record<string, number> = {};
  for (const name of Object.keys(WINDOW_BUDGET_DEFAULTS)) {
    const value = options[name];
    if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) throw new Error(`Herald: window_budget option "${name}" must be a number ≥ 0, got ${JSON.stringify(value)}`);
    read[name] = value;
  }
  for (const name of ['windowShare', 'cropTarget', 'relevanceWeight']) {
    if (read[name]! > 1) throw new Error(`Herald: window_budget option "${name}" must be between 0 and 1, got ${read[name]}`);
  }
  return read as unknown as WindowBudgetOptions;
}

interface Candidate {
  readonly unit: ConversationUnit;
  readonly text: string;
  readonly tokens: number;
  readonly frozen: boolean;
  value: number;
}

async function fitWindow(request: ChatRequest, context: StrategyContext, options: WindowBudgetOptions, scorers: ScorerSource): Promise<StrategyResult> {
  const budget = options.maxTokens > 0 ? options.maxTokens : context.windowTokens ? Math.floor(context.windowTokens * options.windowShare) : 0;
  if (budget <= 0) return { request, action: 'no-budget', reason: 'neither the model\'s window nor maxTokens is known' };

  // 1. Replay the crops pinned on earlier turns, so the cached prefix repeats byte for byte.
  const pinned = new Set(context.state.get<string[]>(PINNED_CROPS) ?? []);
  let current = request;
  const handles: string[] = [];
  let replayed = 0;
  if (pinned.size > 0) {
    for (let index = 0; index < context.frozenCount; index++) {
      if (!pinned.has(messageKey(index, current.messages[index]!))) continue;
      const crop = applyCrop(current, planCrop(current, { start: index, end: index + 1 }), context.stash, 'window_budget');
      current = crop.request;
      handles.push(...crop.handles);
      replayed++;
    }
  }
  let total = context.tokens.countRequest(current);
  const base = { budget, tokensBefore: context.tokens.countRequest(request) };
  if (total <= budget) {
    if (replayed === 0) return { request, action: 'within-budget', reason: `${total} tokens fit the budget of ${budget}`, details: base };
    return { request: current, action: 'crops-replayed', reason: `replayed ${replayed} earlier crop(s); ${total} tokens fit the budget of ${budget}`, handles, details: { ...base, replayed } };
  }

  // 2. Over budget: rank the croppable middle and crop the least useful units down to the target.
  const target = Math.floor(budget * options.cropTarget);
  const { scorer, note } = await scorers.get(context.logger);
  const candidates = await rankCandidates(current, context, options, scorer);
  let cropped = 0;
  let croppedFrozen = 0;
  for (const candidate of candidates) {
    context.deadline.check();
    if (total <= target) break;
    const before = context.tokens.count(candidate.text);
    const crop = applyCrop(current, planCrop(current, candidate.unit), context.stash, 'window_budget');
    const removed = before - crop.replacements.reduce((sum, replacement) => sum + context.tokens.count(replacement), 0);
    if (removed <= 0) continue;
    // Pin the frozen messages this crop rewrote, by their hash before the crop.
    for (let index = candidate.unit.start; index < Math.min(candidate.unit.end, context.frozenCount); index++) {
      if (crop.request.messages[index] !== current.messages[index]) pinned.add(messageKey(index, current.messages[index]!));
    }
    if (candidate.frozen) croppedFrozen++;
    current = crop.request;
    handles.push(...crop.handles);
    total -= removed;
    cropped++;
  }
  if (croppedFrozen > 0) context.state.set(PINNED_CROPS, [...pinned].sort());
  total = context.tokens.countRequest(current);
  const details = { ...base, target, cropped, croppedFrozen, replayed, candidates: candidates.length, tokensAfter: total };
  if (cropped === 0) {
    const reason = `${total} tokens exceed the budget of ${budget}, but nothing more in the croppable middle can go (setup, recent turns, the user's words and failures stay)`;
    return replayed === 0 ? { request, action: 'over-budget', reason, details } : { request: current, action: 'over-budget', reason: `replayed ${replayed} earlier crop(s); ${reason}`, handles, details };
  }
  const fits = total <= budget ? 'fits' : 'still exceeds';
  return {
    request: current,
    action: 'history-cropped',
    reason: `cropped ${cropped} unit(s) (${croppedFrozen} inside the cached prefix) by ${scorer.mode} relevance × recency; ${total} tokens ${fits} the budget of ${budget}${note}`,
    handles,
    details,
  };
}

/**
 * Croppable units, least useful first: undecided history before the cached prefix's units
 * (cropping those costs a cache miss), each group by relevance × recency, lowest first.
 */
async function rankCandidates(request: ChatRequest, context: StrategyContext, options: WindowBudgetOptions, scorer: RelevanceScorer): Promise<Candidate[]> {
  const from = Math.min(options.keepLeading, request.messages.length);
  const to = Math.min(context.freshStart, request.messages.length - options.keepRecent);
  if (to <= from) return [];
  const segments = findToolOutputs(request);
  const failing = new Set(segments.filter((segment) => segment.isError || (segment.exitCode !== undefined && segment.exitCode !== 0)).map((segment) => segment.messageIndex));
  const candidates: Candidate[] = [];
  for (const unit of conversationUnits(request.messages, from, to)) {
    context.deadline.check();
    let hasFailure = false;
    for (let index = unit.start; index < unit.end; index++) if (failing.has(index)) hasFailure = true;
    if (hasFailure) continue;
    const texts = planTexts(request, planCrop(request, unit, segments));
    if (texts.length === 0) continue;
    const text = texts.join('\n');
    const tokens = context.tokens.count(text);
    if (tokens < options.minUnitTokens) continue;
    candidates.push({ unit, text, tokens, frozen: unit.start < context.frozenCount, value: 0 });
  }
  if (candidates.length === 0) return [];
  const query = queryForLatestTurn(request).text;
  const relevance = query.length > 0 ? await scorer.score(query, candidates.map((candidate) => candidate.text), context.signal) : candidates.map(() => 0);
  const best = Math.max(0, ...relevance);
  candidates.forEach((candidate, position) => {
    const relevant = best > 0 ? relevance[position]! / best : 0;
    const recency = (position + 1) / candidates.length;
    candidate.value = options.relevanceWeight * relevant + (1 - options.relevanceWeight) * recency;
  });
  return candidates.sort((a, b) => Number(a.frozen) - Number(b.frozen) || a.value - b.value || a.unit.start - b.unit.start);
}

/** A pin names a message by position and content: identical messages elsewhere are not cropped by it. */
function messageKey(index: number, message: ChatMessage): string {
  return sha256(`${index}\u0000${canonicalJson(message)}`);
}
