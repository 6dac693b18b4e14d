/**
 * The default pipeline on real client traffic, per client, replayed request by request (see
 * test/support/clients): Copilot's own export, Copilot-shaped sessions assembled from the
 * trajectories, the long and the short Claude Code sessions, and the trajectories as
 * mini-swe-agent sent them. Per client: billed tokens with the tools array counted (and how
 * much of them is the tools array), cost with prompt caching priced as the provider bills it
 * (test/support/cachePricing.ts: Anthropic's breakpoints for Claude traffic, OpenAI's longest
 * earlier prefix for the rest, the other rule beside it), prefix stability (tools block included), losslessness, tools
 * the next reply called that the optimized request still offered or could load, facts still
 * shown, median and p95 ms per request. For Claude Code also against the provider's own usage
 * figures: the transcript lacks Claude Code's instructions and most of its tools, so Herald's
 * saving (scaled by the Claude tokenizer factor) is set against what was really billed.
 *
 * HERALD_BENCH_SESSIONS=N keeps the first N sessions of each client; HERALD_BENCH_CLIENTS=a,b
 * picks clients (copilot-export, copilot-shaped, claude-code-long, claude-code-short,
 * trajectories); HERALD_BENCH_CONFIG is a PipelineConfig as JSON.
 */
import { isCacheBreakpointPart } from '../../src/core/chat/cacheHints';
import type { ChatRequest } from '../../src/core/chat/types';
import { Pipeline, type PipelineConfig } from '../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { createStrategies } from '../../src/core/strategies';
import { FAMILY_FACTORS, TokenCounter } from '../../src/core/tokens/tokenCounter';
import { CLIENT_GROUPS, sessionsOf, type ClientGroup } from '../support/clients';
import { addTurn, emptyTotals, replayClientSession, type ClientReplayTotals } from '../support/clients/clientReplay';
import { ANTHROPIC_CACHE_RULE } from '../../src/core/costs/cacheBilling';
import { hasSharedData } from '../support/sharedData';
import type { BenchReport } from './run';
import { median, percent, quantile } from './stats';

/** Where a request's billed tokens are, by kind. */
interface Shares {
  tools: number;
  system: number;
  toolResults: number;
  user: number;
  assistant: number;
}

function addShares(shares: Shares, request: ChatRequest, tokens: TokenCounter): void {
  for (const tool of request.tools) shares.tools += tokens.count(tool.name) + tokens.count(tool.description ?? '') + tokens.count(JSON.stringify(tool.inputSchema ?? null));
  for (const message of request.messages) {
    for (const part of message.parts) {
      if (isCacheBreakpointPart(part)) continue;
      const count = tokens.countPart(part);
      if (message.role === 'system') shares.system += count;
      else if (part.type === 'tool_result') shares.toolResults += count;
      else if (message.role === 'assistant') shares.assistant += count;
      else shares.user += count;
    }
  }
}

/**
 * What a system prompt could lose without any change of meaning: trailing spaces, blank-line
 * runs past one empty line, and exact repeats of a line or a sentence (over 30 characters; short
 * lines such as closing tags repeat legitimately). Measured on each distinct system prompt, to
 * say whether tidying the prompt every request re-sends is worth a strategy.
 */
function tidyableChars(text: string): number {
  let chars = 0;
  for (const match of text.matchAll(/[ \t]+$/gm)) chars += match[0].length;
  for (const match of text.matchAll(/\n{3,}/g)) chars += match[0].length - 2;
  const seen = new Set<string>();
  for (const line of text.split('\n').map((entry) => entry.trim()).filter((entry) => entry.length > 30)) {
    if (seen.has(line)) chars += line.length + 1;
    seen.add(line);
  }
  const sentences = new Set<string>();
  for (const sentence of text.split(/(?<=[.!?])\s+/).map((entry) => entry.trim()).filter((entry) => entry.length > 30 && !entry.includes('\n'))) {
    if (sentences.has(sentence)) chars += sentence.length + 1;
    sentences.add(sentence);
  }
  return chars;
}

interface SystemPrompts {
  readonly distinct: Map<string, number>;
}

/** Claude Code only: the provider's figures, and Herald's saving set against them. */
interface Usage {
  requests: number;
  tokens: number;
  cost: number;
}

interface GroupResult {
  readonly group: ClientGroup;
  readonly sessions: number;
  readonly totals: ClientReplayTotals;
  readonly shares: Shares;
  readonly usage?: Usage;
  readonly summarizations: number;
  readonly summarizationsWithTools: number;
  readonly systemPrompts: SystemPrompts;
  /** Sessions priced under each provider's rule. */
  readonly providers: Record<string, number>;
  /** Requests over Anthropic's breakpoint limit, before and after. */
  readonly overBreakpointLimit: { before: number; after: number };
}

async function replayGroup(group: ClientGroup, limit: number, config: PipelineConfig, tokens: TokenCounter): Promise<GroupResult> {
  const totals = emptyTotals();
  const shares: Shares = { tools: 0, system: 0, toolResults: 0, user: 0, assistant: 0 };
  let usage: Usage | undefined;
  let summarizations = 0;
  let summarizationsWithTools = 0;
  const systemPrompts: SystemPrompts = { distinct: new Map() };
  const providers: Record<string, number> = {};
  const overBreakpointLimit = { before: 0, after: 0 };
  const sessions = sessionsOf(group, limit);
  for (const session of sessions) {
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    const pipeline = new Pipeline(createStrategies(), config, { stash, tokens });
    const summary = await replayClientSession(pipeline, stash, session, tokens);
    providers[summary.provider] = (providers[summary.provider] ?? 0) + 1;
    overBreakpointLimit.before += summary.overBreakpointLimit.before;
    overBreakpointLimit.after += summary.overBreakpointLimit.after;
    summary.turns.forEach((turn, index) => {
      addTurn(totals, turn);
      const entry = session.requests[index]!;
      addShares(shares, entry.request, tokens);
      const system = entry.request.messages[0];
      if (system?.role === 'system') {
        const text = system.parts.map((part) => (part.type === 'text' ? part.text : '')).join('');
        systemPrompts.distinct.set(text, (systemPrompts.distinct.get(text) ?? 0) + 1);
      }
      if (turn.summarization) {
        summarizations++;
        if (turn.optimized.tools.length > 0) summarizationsWithTools++;
      }
      // Copilot reports the cached part of a prompt but not what was written to the cache; Claude Code's usage has both.
      if (entry.usage && session.client === 'claude-code') {
        usage ??= { requests: 0, tokens: 0, cost: 0 };
        usage.requests++;
        usage.tokens += entry.usage.input + entry.usage.cacheWrite + entry.usage.cacheRead;
        usage.cost += entry.usage.input + entry.usage.cacheWrite * ANTHROPIC_CACHE_RULE.writePrice + entry.usage.cacheRead * ANTHROPIC_CACHE_RULE.readPrice;
      }
    });
  }
  return { group, sessions: sessions.length, totals, shares, ...(usage ? { usage } : {}), summarizations, summarizationsWithTools, systemPrompts, providers, overBreakpointLimit };
}

function linesOf(result: GroupResult): string[] {
  const { totals, shares } = result;
  const all = shares.tools + shares.system + shares.toolResults + shares.user + shares.assistant;
  const lines = [
    `${result.group}: ${result.sessions} sessions, ${totals.requests} requests`,
    `  billed tokens (tools array counted): ${totals.tokensBefore} → ${totals.tokensAfter} (saved ${percent(totals.tokensBefore - totals.tokensAfter, totals.tokensBefore)}); tools array ${percent(totals.toolTokensBefore, totals.tokensBefore)} of them, ${totals.toolTokensBefore} → ${totals.toolTokensAfter}`,
    `  where they are (before): tools ${percent(shares.tools, all)}, system ${percent(shares.system, all)}, tool results ${percent(shares.toolResults, all)}, user ${percent(shares.user, all)}, assistant ${percent(shares.assistant, all)}`,
    `  cached cost as the provider bills it (${Object.entries(result.providers).map(([provider, count]) => `${count} sessions ${provider === 'anthropic' ? "Anthropic: entries at breakpoints" : 'OpenAI: longest earlier prefix'}`).join(', ')}): ${totals.costBefore.toFixed(0)} → ${totals.costAfter.toFixed(0)} (saved ${percent(totals.costBefore - totals.costAfter, totals.costBefore)}); under the other rule ${totals.costBeforeOther.toFixed(0)} → ${totals.costAfterOther.toFixed(0)} (saved ${percent(totals.costBeforeOther - totals.costAfterOther, totals.costBeforeOther)})${result.overBreakpointLimit.before + result.overBreakpointLimit.after > 0 ? `; requests over the 4-breakpoint limit: ${result.overBreakpointLimit.before} → ${result.overBreakpointLimit.after}` : ''}`,
    `  prefix stability ${percent(totals.stable, totals.requests)} (tools block changed by Herald on ${totals.toolsBlockChanges} requests); lossless ${percent(totals.lossless, totals.requests)}`,
    `  tools the next reply called, still offered or loadable: ${totals.calledReachable} of ${totals.called}${totals.unreachable.length > 0 ? ` (missing: ${[...new Set(totals.unreachable)].slice(0, 8).join(', ')})` : ''}`,
    `  code-like facts the next reply took from history, still shown: ${percent(totals.factsVisible, totals.factsUsed)} (${totals.factsVisible} of ${totals.factsUsed})`,
    `  time per request: median ${median(totals.durations).toFixed(2)} ms, p95 ${quantile(totals.durations, 0.95).toFixed(2)} ms`,
  ];
  if (result.summarizations > 0) lines.push(`  summarization requests: ${result.summarizations}, tools still offered on ${result.summarizationsWithTools}`);
  const prompts = [...result.systemPrompts.distinct.keys()];
  if (prompts.length > 0) {
    const chars = prompts.reduce((sum, text) => sum + text.length, 0);
    const tidyable = prompts.reduce((sum, text) => sum + tidyableChars(text), 0);
    lines.push(`  system prompts: ${prompts.length} distinct (re-sent on ${[...result.systemPrompts.distinct.values()].reduce((a, b) => a + b, 0)} requests); a tidy that cannot change meaning (trailing spaces, blank runs, repeated lines and sentences) would remove ${percent(tidyable, chars)} of their characters`);
  }
  if (result.usage) {
    const factor = FAMILY_FACTORS.claude ?? 1;
    const savedTokens = (totals.tokensBefore - totals.tokensAfter) * factor;
    const savedCost = (totals.costBefore - totals.costAfter) * factor;
    lines.push(
      `  against the provider's usage (${result.usage.requests} requests; Herald's saving ×${factor} for the Claude tokenizer): billed input ${result.usage.tokens} → ${Math.round(result.usage.tokens - savedTokens)} (saved ${percent(savedTokens, result.usage.tokens)}), cached cost ${result.usage.cost.toFixed(0)} → ${(result.usage.cost - savedCost).toFixed(0)} (saved ${percent(savedCost, result.usage.cost)})`,
    );
  }
  return lines;
}

export async function bench(): Promise<BenchReport> {
  if (!hasSharedData()) return { title: 'Default pipeline on real client traffic', lines: ['skipped: ../shared/data is absent'] };
  const limit = Number(process.env.HERALD_BENCH_SESSIONS ?? Infinity);
  const wanted = process.env.HERALD_BENCH_CLIENTS?.split(',').map((name) => name.trim()).filter(Boolean);
  const unknown = wanted?.filter((name) => !CLIENT_GROUPS.includes(name as ClientGroup)) ?? [];
  if (unknown.length > 0) throw new Error(`Herald bench: unknown client ${unknown.join(', ')} (known: ${CLIENT_GROUPS.join(', ')})`);
  const groups = wanted ? CLIENT_GROUPS.filter((group) => wanted.includes(group)) : CLIENT_GROUPS;
  const config = JSON.parse(process.env.HERALD_BENCH_CONFIG ?? '{}') as PipelineConfig;
  const tokens = new TokenCounter(200_000);
  const results: GroupResult[] = [];
  for (const group of groups) results.push(await replayGroup(group, limit, config, tokens));
  return {
    title: 'Default pipeline on real client traffic (request-by-request replay per client)',
    lines: results.flatMap(linesOf),
    figures: Object.fromEntries(results.map((result) => [result.group, {
      sessions: result.sessions,
      requests: result.totals.requests,
      tokensBefore: result.totals.tokensBefore,
      tokensAfter: result.totals.tokensAfter,
      toolTokensBefore: result.totals.toolTokensBefore,
      toolTokensAfter: result.totals.toolTokensAfter,
      costBefore: result.totals.costBefore,
      costAfter: result.totals.costAfter,
      costBeforeOther: result.totals.costBeforeOther,
      costAfterOther: result.totals.costAfterOther,
      providers: result.providers,
      overBreakpointLimit: result.overBreakpointLimit,
      stable: result.totals.stable,
      toolsBlockChanges: result.totals.toolsBlockChanges,
      lossless: result.totals.lossless,
      called: result.totals.called,
      calledReachable: result.totals.calledReachable,
      unreachable: [...new Set(result.totals.unreachable)],
      factsUsed: result.totals.factsUsed,
      factsVisible: result.totals.factsVisible,
      shares: result.shares,
      usage: result.usage,
      summarizations: result.summarizations,
      medianMs: median(result.totals.durations),
      p95Ms: quantile(result.totals.durations, 0.95),
    }])),
  };
}
