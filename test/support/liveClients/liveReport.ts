/**
 * The figures of one task run both ways: what the provider billed (every request it received,
 * every round of every turn), the cached cost under the provider's own cache rule and under the
 * other one, whether the task completed the same way, and Herald's own figures per turn against
 * the provider's usage for that turn.
 */
import { anthropicBodyBlocks, wireBodyBlocks, type CountText, type WireApi } from '../../../src/core/costs/billingBlocks';
import { anthropicCacheRule, billSession, OPENAI_CACHE_RULE, sumBills, type BillingBlock, type CacheRule } from '../../../src/core/costs/cacheBilling';
import type { TaskScript } from './agentScript';
import type { LiveClient } from './clients';
import type { ProviderRecord } from './scriptedProvider';
import { isJson, viewOf } from './wireViews';
import type { HeraldTurn, RunResult } from './liveRun';

/** One way's totals. */
export interface WayFigures {
  /** Requests of the task the provider received (Herald's in-turn rounds included). */
  readonly requests: number;
  /** Requests without the task (a client's side requests), billed too. */
  readonly sideRequests: number;
  /** Herald's retrieve calls the provider's agent made. */
  readonly retrievals: number;
  /** Cached cost of the requests the agent answered with a retrieve call (the rounds' extra request). */
  readonly retrieveCost: number;
  /** Input tokens billed over every request. */
  readonly inputTokens: number;
  readonly cacheReadTokens: number;
  readonly cacheWriteTokens: number;
  /** Cached cost (input-token equivalents) as the provider billed it (its own rule). */
  readonly cachedCost: number;
  /** The same requests priced under the other rule. */
  readonly cachedCostOtherRule: number;
  /** The client's calls, one per step reached. */
  readonly calls: readonly string[];
  readonly finalText: string;
  readonly exitCode: number | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
}

/** Herald's own figures for each turn against the provider's usage of that turn (all its rounds). */
export interface TurnCheck {
  readonly turns: number;
  /** The turns' rounds add up to the requests the provider received (else the pairing below is off). */
  readonly paired: boolean;
  /** Herald's tokensAfter within 2% of the provider's billed input of the turn. */
  readonly tokensAfterWithin2: number;
  readonly tokensAfterWorst: number;
  /** The median turn's deviation (the worst is the turn with a retrieval round when tokensAfter leaves rounds out). */
  readonly tokensAfterMedian: number;
  /** Herald's recorded usage within 2% of the provider's. */
  readonly usageWithin2: number;
  readonly usageWorst: number;
  readonly rows: readonly { readonly rounds: number; readonly provider: number; readonly heraldTokensAfter: number; readonly heraldUsage: number | null }[];
}

export interface TaskFigures {
  readonly client: string;
  readonly task: string;
  readonly set: TaskScript['set'];
  readonly length: TaskScript['length'];
  readonly ownRule: string;
  readonly otherRule: string;
  readonly direct: WayFigures;
  readonly herald: WayFigures;
  readonly inputTokensChange: number;
  readonly cachedCostChange: number;
  readonly cachedCostOtherRuleChange: number;
  readonly sameCalls: boolean;
  readonly sameAnswer: boolean;
  /** Where the client's own tool outputs were not alike both ways (a client that did not run the same), or undefined. */
  readonly clientOutputsDiffer?: string;
  readonly heraldTurns: TurnCheck;
  /** Which attempt of the task's pair this is (the bench runs a pair again when the client ran differently); absent for one. */
  readonly attempts?: number;
}

const BILLED_APIS = new Set(['anthropic', 'responses', 'chat']);

function billed(records: readonly ProviderRecord[]): ProviderRecord[] {
  return records.filter((record) => BILLED_APIS.has(record.api) && record.bill !== undefined);
}

/**
 * The other rule's price of the same requests: Anthropic bodies under OpenAI's prefix rule; the
 * OpenAI APIs' bodies under Anthropic's, with the breakpoint Anthropic's automatic caching puts
 * on the last block (their clients set none).
 */
function otherRuleCost(records: readonly ProviderRecord[], count: CountText): number {
  const byModel = new Map<string, BillingBlock[][]>();
  let rule: CacheRule = OPENAI_CACHE_RULE;
  for (const record of records) {
    const api = record.api as WireApi;
    let blocks: BillingBlock[];
    if (api === 'anthropic') {
      blocks = anthropicBodyBlocks(record.body, count).map((block) => ({ key: block.key, tokens: block.tokens }));
      rule = OPENAI_CACHE_RULE;
    } else {
      blocks = wireBodyBlocks(api, record.body, count);
      if (blocks.length > 0) blocks[blocks.length - 1] = { ...blocks[blocks.length - 1]!, breakpoint: true };
      rule = anthropicCacheRule('claude-sonnet-4-5');
    }
    const list = byModel.get(record.model) ?? [];
    list.push(blocks);
    byModel.set(record.model, list);
  }
  let cost = 0;
  for (const requests of byModel.values()) cost += sumBills(billSession(requests.map((blocks) => ({ blocks })), rule)).cost;
  return cost;
}

function wayFigures(run: RunResult, task: TaskScript, count: CountText): WayFigures {
  const all = billed(run.records);
  const ofTask = all.filter((record) => record.task === task.id && record.kind !== 'side');
  const total = sumBills(all.map((record) => record.bill!));
  const steps = new Map<number, string>();
  for (const record of ofTask) if (record.kind === 'call' && record.step !== undefined && !steps.has(record.step)) steps.set(record.step, `${record.call!.name} ${JSON.stringify(record.call!.input)}`);
  return {
    requests: ofTask.length,
    sideRequests: all.length - ofTask.length,
    retrievals: ofTask.filter((record) => record.kind === 'retrieve').length,
    retrieveCost: sumBills(ofTask.filter((record) => record.kind === 'retrieve').map((record) => record.bill!)).cost,
    inputTokens: total.totalTokens,
    cacheReadTokens: total.cacheReadTokens,
    cacheWriteTokens: total.cacheWriteTokens,
    cachedCost: total.cost,
    cachedCostOtherRule: otherRuleCost(all, count),
    calls: [...steps.entries()].sort((a, b) => a[0] - b[0]).map(([, call]) => call),
    finalText: run.client.finalText.trim(),
    exitCode: run.client.exitCode,
    timedOut: run.client.timedOut,
    durationMs: run.client.durationMs,
  };
}

/** The latest tool output each of the task's requests ends with, by the step it asked for ("answer" for the last). */
function clientOutputs(run: RunResult, task: TaskScript): Map<string, string> {
  const outputs = new Map<string, string>();
  for (const record of run.records) {
    if (record.task !== task.id || (record.kind !== 'call' && record.kind !== 'answer') || !BILLED_APIS.has(record.api) || !isJson(record.body)) continue;
    const key = record.kind === 'answer' ? 'answer' : String(record.step);
    const last = viewOf(record.api as WireApi, record.body).lastResult;
    if (last !== undefined && !outputs.has(key)) outputs.set(key, last);
  }
  return outputs;
}

/**
 * Where the client handed over a tool output through Herald that is longer than the same step's
 * output straight to the provider: Herald never lengthens an output, so the client itself ran
 * differently (Qwen Code's shell once returned `Output: (empty)` for `seq 1 2500`), and the
 * task's two ways are not like for like.
 */
export function clientOutputsDiffer(direct: RunResult, herald: RunResult, task: TaskScript): string | undefined {
  const before = clientOutputs(direct, task);
  for (const [step, text] of clientOutputs(herald, task)) {
    const straight = before.get(step);
    if (straight === undefined || text.includes('[herald')) continue;
    if (text.length > straight.length * 1.2 + 64) return `step ${step}: ${straight.length} characters straight to the provider, ${text.length} through Herald`;
  }
  return undefined;
}

function deviation(herald: number, provider: number): number {
  return provider === 0 ? (herald === 0 ? 0 : Infinity) : Math.abs(herald - provider) / provider;
}

function usageTotal(turn: HeraldTurn): number | null {
  if (!turn.usage) return null;
  return (turn.usage.inputTokens ?? 0) + (turn.usage.cacheReadTokens ?? 0) + (turn.usage.cacheWriteTokens ?? 0);
}

/** Herald's turns paired in order with the provider's requests, `rounds` requests a turn. */
function checkTurns(run: RunResult): TurnCheck {
  const requests = billed(run.records);
  const rows: { rounds: number; provider: number; heraldTokensAfter: number; heraldUsage: number | null }[] = [];
  let next = 0;
  for (const turn of run.turns) {
    const rounds = turn.rounds ?? 1;
    const mine = requests.slice(next, next + rounds);
    next += rounds;
    rows.push({ rounds, provider: mine.reduce((sum, record) => sum + record.bill!.totalTokens, 0), heraldTokensAfter: turn.tokensAfter, heraldUsage: usageTotal(turn) });
  }
  const tokensAfter = rows.map((row) => deviation(row.heraldTokensAfter, row.provider));
  const usage = rows.map((row) => (row.heraldUsage === null ? Infinity : deviation(row.heraldUsage, row.provider)));
  return {
    turns: rows.length,
    paired: next === requests.length,
    tokensAfterWithin2: tokensAfter.filter((value) => value <= 0.02).length,
    tokensAfterWorst: Math.max(0, ...tokensAfter),
    tokensAfterMedian: median(tokensAfter),
    usageWithin2: usage.filter((value) => value <= 0.02).length,
    usageWorst: Math.max(0, ...usage),
    rows,
  };
}

function median(values: readonly number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

function change(after: number, before: number): number {
  return before === 0 ? 0 : (after - before) / before;
}

export function taskFigures(client: LiveClient, task: TaskScript, direct: RunResult, herald: RunResult, count: CountText): TaskFigures {
  const a = wayFigures(direct, task, count);
  const b = wayFigures(herald, task, count);
  const own = client.api === 'anthropic' ? 'anthropic-breakpoints' : 'openai-prefix';
  const differ = clientOutputsDiffer(direct, herald, task);
  return {
    client: client.id,
    task: task.id,
    set: task.set,
    length: task.length,
    ownRule: own,
    otherRule: own === 'anthropic-breakpoints' ? 'openai-prefix' : 'anthropic-automatic',
    direct: a,
    herald: b,
    inputTokensChange: change(b.inputTokens, a.inputTokens),
    cachedCostChange: change(b.cachedCost, a.cachedCost),
    cachedCostOtherRuleChange: change(b.cachedCostOtherRule, a.cachedCostOtherRule),
    sameCalls: a.calls.length === task.steps.length && JSON.stringify(a.calls) === JSON.stringify(b.calls),
    sameAnswer: a.finalText.length > 0 && a.finalText === b.finalText && a.exitCode === 0 && b.exitCode === 0,
    ...(differ !== undefined ? { clientOutputsDiffer: differ } : {}),
    heraldTurns: checkTurns(herald),
  };
}
