/**
 * The tool catalog and edit_mask on real client traffic.
 *
 * Catalog: Copilot-shaped sessions (Copilot's real system prompts and 69 tools, 20 of the
 * GitHub MCP server's tools, the trajectories' work as Copilot tool calls) and Copilot's own
 * export, replayed request by request through the default pipeline, priced per target kind.
 * A model that meets a tool only in the catalog either loads it first (one more round inside
 * the turn, its tools block changed, so that round is written to the provider's cache whole)
 * or calls it directly (no round; the tool joins the full set on the next request): both are
 * replayed, as the bounds of what a real model does. Cost is priced as the provider bills it
 * (test/support/cachePricing.ts), tools block included: it heads the cached prefix, so a
 * request whose tools differ from the previous request's reads nothing from the cache. A Copilot-hosted target bills requests, not tokens: there the figure is
 * premium requests (one per request sent, Herald's extra rounds included) against the window
 * the catalog frees.
 *
 * edit_mask: the same pipeline with and without it on every client group (Copilot-shaped,
 * Copilot's export, the long and the short Claude Code sessions, the trajectories): tokens,
 * cost with caching priced in, facts the next reply took from history still shown, prefix
 * stability and losslessness of every request.
 *
 * HERALD_BENCH_SESSIONS limits the sessions per group (default: all); HERALD_BENCH_PART=catalog
 * or edits runs one half.
 */
import type { ChatMessage, ChatRequest } from '../../src/core/chat/types';
import { Pipeline, type PipelineConfig } from '../../src/core/pipeline';
import type { TargetKind } from '../../src/core/pipeline/types';
import { MemoryBlobStore, Stash } from '../../src/core/stash';
import { createStrategies } from '../../src/core/strategies';
import { CATALOG_TOOL_NAME } from '../../src/core/strategies/catalog/catalogTool';
import { recordLoadedTools, TOOL_CATALOG_ID } from '../../src/core/strategies/toolCatalog';
import { TokenCounter } from '../../src/core/tokens';
import { copilotMcpName, loadMcpTools, sessionsOf, type ClientGroup, type ClientSession } from '../support/clients';
import { factRecall } from '../support/factRecall';
import { pricersFor } from '../support/cachePricing';
import { expandsBack } from '../support/replay';
import type { BenchReport } from './run';
import { median, percent, quantile } from './stats';

/** Copilot's window for the Claude and GPT models of its export (maxPromptTokens 127,997). */
const COPILOT_WINDOW = 128_000;

/** How the simulated model meets a tool that is only in the catalog. */
type LoadMode = 'load-first' | 'call-directly';

interface Totals {
  requests: number;
  /** Requests sent to the target, Herald's extra rounds included (Copilot-hosted: premium requests). */
  sent: number;
  extraRounds: number;
  tokens: number;
  cost: number;
  toolTokens: number;
  toolsChanged: number;
  called: number;
  calledOffered: number;
  calledReachable: number;
  factsUsed: number;
  factsVisible: number;
  stable: number;
  /** Requests the client itself sent with the previous request's messages (but its last) unchanged: the most a proxy can keep. */
  clientStable: number;
  lossless: number;
  /** Requests whose optimized size passes the window less Copilot's answer room: Copilot would summarize before them. */
  overWindow: number;
  readonly durations: number[];
}

function emptyTotals(): Totals {
  return { requests: 0, sent: 0, extraRounds: 0, tokens: 0, cost: 0, toolTokens: 0, toolsChanged: 0, called: 0, calledOffered: 0, calledReachable: 0, factsUsed: 0, factsVisible: 0, stable: 0, clientStable: 0, lossless: 0, overWindow: 0, durations: [] };
}

function toolTokensOf(request: ChatRequest, tokens: TokenCounter): number {
  return request.tools.reduce((sum, tool) => sum + tokens.count(tool.name) + tokens.count(tool.description ?? '') + tokens.count(JSON.stringify(tool.inputSchema ?? null) ?? ''), 0);
}

/** The round Herald sends after answering a load: the same messages, the model's load call and Herald's answer, the grown tools. */
function loadRound(sent: ChatRequest, tools: ChatRequest['tools'], names: readonly string[]): ChatRequest {
  const call: ChatMessage = { role: 'assistant', parts: [{ type: 'tool_call', id: 'herald_load', name: CATALOG_TOOL_NAME, arguments: { names } }], contentShape: 'parts' };
  const answer: ChatMessage = { role: 'user', parts: [{ type: 'tool_result', callId: 'herald_load', content: [{ type: 'text', text: `Loaded ${names.join(', ')}: their full definitions are now among your tools; call them as usual.` }], contentShape: 'parts' }], contentShape: 'parts' };
  return { ...sent, tools, messages: [...sent.messages, call, answer] };
}

async function replaySession(session: ClientSession, config: PipelineConfig, targetKind: TargetKind | undefined, mode: LoadMode, tokens: TokenCounter, into: Totals): Promise<void> {
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const pipeline = new Pipeline(createStrategies(), config, { stash, tokens });
  const run = { windowTokens: COPILOT_WINDOW, ...(targetKind ? { targetKind } : {}) };
  let previousSent: ChatRequest | undefined;
  // Priced as the session's provider bills (cachePricing.ts): Claude traffic by breakpoints, the rest by the longest earlier prefix.
  const pricer = session.requests[0] ? pricersFor(session.requests[0].request, tokens).own : undefined;
  let previousOptimized: readonly ChatMessage[] = [];
  let previousOriginal: readonly ChatMessage[] = [];
  for (const entry of session.requests) {
    const result = await pipeline.run(entry.request, run);
    into.durations.push(result.durationMs);
    const sent = session.roundTrip(result.request);
    into.requests++;
    into.sent++;
    into.tokens += tokens.countRequest(sent);
    into.toolTokens += toolTokensOf(sent, tokens);
    into.cost += pricer!.bill(sent).cost;
    if (previousSent && JSON.stringify(previousSent.tools) !== JSON.stringify(sent.tools)) into.toolsChanged++;
    if (tokens.countRequest(sent) > COPILOT_WINDOW - 16_000) into.overWindow++;
    into.stable += previousOptimized.slice(0, -1).every((message, index) => JSON.stringify(message) === JSON.stringify(sent.messages[index])) ? 1 : 0;
    const original = session.roundTrip(entry.request);
    into.clientStable += previousOriginal.slice(0, -1).every((message, index) => JSON.stringify(message) === JSON.stringify(original.messages[index])) ? 1 : 0;
    previousOriginal = original.messages;
    into.lossless += (await expandsBack(entry.request, sent, stash, result.elisions)) ? 1 : 0;
    if (entry.reply) {
      const recall = factRecall(entry.request.messages, sent.messages, entry.reply);
      into.factsUsed += recall.used;
      into.factsVisible += recall.visible;
    }
    const full = new Set(sent.tools.map((tool) => tool.name));
    const listing = sent.tools.find((tool) => tool.name === CATALOG_TOOL_NAME)?.description ?? '';
    const offeredByCaller = new Set(entry.request.tools.map((tool) => tool.name));
    const called = entry.calledTools.filter((name) => offeredByCaller.has(name));
    into.called += called.length;
    into.calledOffered += called.filter((name) => full.has(name)).length;
    into.calledReachable += called.filter((name) => full.has(name) || listing.includes(`\n- ${name}(`)).length;
    previousSent = sent;
    previousOptimized = sent.messages;
    const missing = [...new Set(called.filter((name) => !full.has(name)))];
    if (mode === 'load-first' && missing.length > 0) {
      // The model asks Herald first: Herald records the load and sends the turn again with the schemas.
      recordLoadedTools(pipeline.state.scope(result.sessionId, TOOL_CATALOG_ID), missing);
      const again = await pipeline.run(entry.request, run);
      const round = loadRound(sent, session.roundTrip(again.request).tools, missing);
      into.sent++;
      into.extraRounds++;
      into.tokens += tokens.countRequest(round);
      into.cost += pricer!.bill(round).cost;
      previousSent = round;
    }
  }
}

async function replayGroup(sessions: readonly ClientSession[], config: PipelineConfig, targetKind: TargetKind | undefined, mode: LoadMode, tokens: TokenCounter): Promise<Totals> {
  const totals = emptyTotals();
  for (const session of sessions) await replaySession(session, config, targetKind, mode, tokens, totals);
  return totals;
}

function catalogLine(label: string, totals: Totals, base: Totals): string {
  return `  ${label}: tokens ${percent(base.tokens - totals.tokens, base.tokens)} saved, cached cost ${percent(base.cost - totals.cost, base.cost)} saved, tools block ${percent(base.toolTokens - totals.toolTokens, base.toolTokens)} smaller; extra rounds ${totals.extraRounds} (${(totals.extraRounds / Math.max(1, totals.requests)).toFixed(3)} a request); tools block changed on ${totals.toolsChanged} of ${totals.requests} requests; called tools offered in full ${percent(totals.calledOffered, totals.called)}, reachable ${percent(totals.calledReachable, totals.called)}`;
}

/** The session with every GitHub MCP tool in its tool list, under Copilot's naming (the ones it already had stay where they were). */
function withAllMcpTools(session: ClientSession): ClientSession {
  const extra = loadMcpTools().map((tool) => ({ name: copilotMcpName('github', tool.name), description: tool.description, inputSchema: tool.inputSchema }));
  return {
    ...session,
    requests: session.requests.map((entry) => {
      const present = new Set(entry.request.tools.map((tool) => tool.name));
      return { ...entry, request: { ...entry.request, tools: [...entry.request.tools, ...extra.filter((tool) => !present.has(tool.name))] } };
    }),
  };
}

export async function bench(): Promise<BenchReport> {
  const limit = Number(process.env.HERALD_BENCH_SESSIONS ?? Infinity);
  const tokens = new TokenCounter(200_000);
  const lines: string[] = [];
  const figures: Record<string, unknown> = {};
  const noEditMask: PipelineConfig = { enabled: { edit_mask: false } };

  const part = process.env.HERALD_BENCH_PART;
  // The tool catalog, priced per target kind, on Copilot's traffic.
  for (const group of part === 'edits' ? [] : (['copilot-export', 'copilot-shaped'] as const)) {
    const sessions = sessionsOf(group, limit);
    const base = await replayGroup(sessions, {}, undefined, 'call-directly', tokens);
    const loadFirst = await replayGroup(sessions, {}, 'endpoint', 'load-first', tokens);
    const direct = await replayGroup(sessions, {}, 'endpoint', 'call-directly', tokens);
    const copilot = await replayGroup(sessions, {}, 'copilot-hosted', 'load-first', tokens);
    const copilotForced = await replayGroup(sessions, { options: { tool_catalog: { copilotHostedWindowShare: 0 } } }, 'copilot-hosted', 'load-first', tokens);
    lines.push(`${group}: ${sessions.length} session(s), ${base.requests} requests; tools block ${(base.toolTokens / Math.max(1, base.requests)).toFixed(0)} tokens a request, ${percent(base.toolTokens, base.tokens)} of the tokens (after the other strategies)`);
    lines.push(`  catalog off (no Herald flow, as optimize): tokens ${base.tokens}, cached cost ${base.cost.toFixed(0)}, premium requests ${base.sent}`);
    lines.push(catalogLine('endpoint/gateway, model loads every catalogued tool first', loadFirst, base));
    lines.push(catalogLine('endpoint/gateway, model calls catalogued tools directly', direct, base));
    lines.push(`  Copilot-hosted (default: offered when the tools fill ${'≥'}25% of the ${COPILOT_WINDOW}-token window): premium requests ${base.sent} → ${copilot.sent}, tools block ${percent(base.toolTokens - copilot.toolTokens, base.toolTokens)} smaller`);
    lines.push(`  Copilot-hosted with the catalog forced on, model loads first: premium requests ${base.sent} → ${copilotForced.sent} (+${percent(copilotForced.sent - base.sent, base.sent)}); window freed ${((base.toolTokens - copilotForced.toolTokens) / Math.max(1, base.requests)).toFixed(0)} tokens a request (${percent((base.toolTokens - copilotForced.toolTokens) / Math.max(1, base.requests), COPILOT_WINDOW)} of the window); requests past the window less answer room ${base.overWindow} → ${copilotForced.overWindow}`);
    figures[`catalog:${group}`] = { base, loadFirst, direct, copilot, copilotForced };
  }

  // edit_mask with and without, every client group.
  for (const group of part === 'catalog' ? [] : (['copilot-shaped', 'copilot-export', 'claude-code-long', 'claude-code-short', 'trajectories'] as ClientGroup[])) {
    const sessions = sessionsOf(group, limit);
    const before = await replayGroup(sessions, noEditMask, undefined, 'call-directly', tokens);
    const after = await replayGroup(sessions, {}, undefined, 'call-directly', tokens);
    lines.push(
      `edit_mask on ${group} (${sessions.length} sessions, ${after.requests} requests): tokens ${percent(before.tokens - after.tokens, before.tokens)} more saved (${before.tokens} → ${after.tokens}), cached cost ${percent(before.cost - after.cost, before.cost)} (${before.cost.toFixed(0)} → ${after.cost.toFixed(0)}); facts still shown ${percent(before.factsVisible, before.factsUsed)} → ${percent(after.factsVisible, after.factsUsed)}; prefix stable ${percent(before.stable, before.requests)} → ${percent(after.stable, after.requests)} (the client's own ${percent(after.clientStable, after.requests)}), lossless ${percent(before.lossless, before.requests)} → ${percent(after.lossless, after.requests)}; median ${median(after.durations).toFixed(1)} ms, p95 ${quantile(after.durations, 0.95).toFixed(1)} ms`,
    );
    figures[`editMask:${group}`] = { before, after };
  }
  // Copilot-hosted with a large tool list: every GitHub MCP tool offered (as a user with that server and a few more would have).
  if (part !== 'edits') {
    const sessions = sessionsOf('copilot-shaped', limit).map(withAllMcpTools);
    const base = await replayGroup(sessions, {}, undefined, 'call-directly', tokens);
    const copilot = await replayGroup(sessions, {}, 'copilot-hosted', 'load-first', tokens);
    lines.push(`copilot-shaped with all 117 GitHub MCP tools: tools block ${(base.toolTokens / Math.max(1, base.requests)).toFixed(0)} tokens a request (${percent(base.toolTokens / Math.max(1, base.requests), COPILOT_WINDOW)} of the window)`);
    lines.push(`  Copilot-hosted, default rule: premium requests ${base.sent} → ${copilot.sent} (+${percent(copilot.sent - base.sent, base.sent)}), window freed ${((base.toolTokens - copilot.toolTokens) / Math.max(1, base.requests)).toFixed(0)} tokens a request; requests past the window less answer room (Copilot summarizes before them, one more premium request each time) ${base.overWindow} → ${copilot.overWindow}; called tools reachable ${percent(copilot.calledReachable, copilot.called)}`);
    figures['catalog:copilot-shaped+mcp'] = { base, copilot };
  }
  return { title: 'Tool catalog per target kind, and edit_mask, on client traffic', lines, figures };
}
