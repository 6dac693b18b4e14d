/**
 * The figures a turn shows (issue 28.1): "without Herald" is the original request sent once;
 * "with Herald" is every round Herald sent, its own calls included, billed as the provider billed
 * it. A fake provider here caches prefixes as OpenAI does and reports what it would bill for each
 * request it receives; every view must show that bill, and the same numbers.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ChatRequest } from '../../../src/core/chat/types';
import { requestBlocks } from '../../../src/core/costs/billingBlocks';
import { OPENAI_CACHE_RULE, ProviderCache } from '../../../src/core/costs/cacheBilling';
import { DEFAULT_PRICES, usageCost } from '../../../src/core/costs/prices';
import { addUsage, NO_USAGE, type FullUsage } from '../../../src/core/costs/usage';
import type { ProviderUsage, ResponseChunk } from '../../../src/core/flow/forwardTarget';
import { RETRIEVE_TOOL_NAME, runRequestFlow, type RequestRecord } from '../../../src/core/flow/requestFlow';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { DecisionLog, EMPTY_TOTALS, savingsReportCsv } from '../../../src/vscode/decisions/decisionLog';
import { readDecisionFile, writeDecisionFile } from '../../../src/vscode/decisions/decisionStore';
import { OriginalBills } from '../../../src/vscode/decisions/originalBills';
import { withCost } from '../../../src/vscode/decisions/requestCost';
import { statusText } from '../../../src/vscode/host/statusText';
import { explainRecord } from '../../../src/vscode/knowledge/explainRecord';
import { requestView } from '../../../src/vscode/sidebar/requestView';
import { moneyComparison, moneyLine, savingsPhrase, usd } from '../../../src/webview/figuresText';
import { FakeTarget } from '../flow/fakeTarget';
import { BULK, elidingStrategy } from '../flow/flowFixtures';

const PRICE_KEY = 'gpt-4.1';
const SYSTEM = Array.from({ length: 300 }, (_, index) => `Rule ${index}: keep the build green and explain each change you make.`).join('\n');

/** A conversation whose history output Herald elides, under a long system prompt a provider caches. */
function conversation(question = 'Which line mentions 42?'): ChatRequest {
  return {
    format: 'vscode',
    messages: [
      { role: 'system', parts: [{ type: 'text', text: SYSTEM }], contentShape: 'parts' },
      { role: 'user', parts: [{ type: 'text', text: 'Build it' }], contentShape: 'parts' },
      { role: 'assistant', parts: [{ type: 'tool_call', id: 'c1', name: 'run', arguments: { command: 'make' } }], contentShape: 'parts' },
      { role: 'user', parts: [{ type: 'tool_result', callId: 'c1', content: [{ type: 'text', text: BULK }], contentShape: 'parts' }], contentShape: 'parts' },
      { role: 'assistant', parts: [{ type: 'text', text: 'It built.' }], contentShape: 'parts' },
      { role: 'user', parts: [{ type: 'text', text: question }], contentShape: 'parts' },
    ],
    tools: [{ name: 'run', description: 'Runs a command', inputSchema: { type: 'object' } }],
    options: {},
  };
}

/** A provider that caches prefixes as OpenAI does, and reports for each request what it bills (its "usage"). */
function billingProvider(tokens: TokenCounter): { billed: FullUsage[]; usageFor: (request: ChatRequest, outputTokens: number) => ProviderUsage } {
  const cache = new ProviderCache(OPENAI_CACHE_RULE);
  const billed: FullUsage[] = [];
  return {
    billed,
    usageFor: (request, outputTokens) => {
      const bill = cache.record({ blocks: requestBlocks(request, tokens) });
      const usage = { inputTokens: bill.freshTokens, cacheReadTokens: bill.cacheReadTokens, cacheWriteTokens: 0, outputTokens };
      billed.push(usage);
      return usage;
    },
  };
}

/**
 * A conversation of two turns through the flow, the way the VS Code provider runs it (one
 * pipeline, one provider, one model of the originals' bills), each record priced with the facts
 * the provider gathers. The second turn is the one measured: the provider has the first in cache.
 */
async function session(options: { retrieve: boolean }): Promise<{ record: RequestRecord; billed: FullUsage[] }> {
  const tokens = new TokenCounter();
  const stash = new Stash({ store: new MemoryBlobStore() });
  const pipeline = new Pipeline([elidingStrategy()], {}, { stash, tokens });
  const provider = billingProvider(tokens);
  const bills = new OriginalBills(tokens);
  const answer = (request: ChatRequest): ResponseChunk[] => [{ type: 'text', text: 'Line 42 says build output.' }, { type: 'usage', usage: provider.usageFor(request, 30) }];
  const retrieveFirst = (request: ChatRequest): ResponseChunk[] => [
    { type: 'tool_call', id: 'x1', name: RETRIEVE_TOOL_NAME, input: { handle: /retrieve (hr_[a-z2-7]{16})/.exec(JSON.stringify(request.messages))![1]! } },
    { type: 'usage', usage: provider.usageFor(request, 15) },
  ];
  const first = conversation('Which line mentions 41?');
  const second: ChatRequest = { ...first, messages: [...first.messages, { role: 'assistant', parts: [{ type: 'text', text: 'Line 41 says build output.' }], contentShape: 'parts' }, { role: 'user', parts: [{ type: 'text', text: 'And which mentions 42?' }], contentShape: 'parts' }] };
  let record: RequestRecord | undefined;
  for (const [index, original] of [first, second].entries()) {
    const target = new FakeTarget(options.retrieve && index === 1 ? [retrieveFirst, answer] : [answer], { id: 'endpoint:fake', billing: 'tokens', family: PRICE_KEY, wireFormat: 'openai' });
    const rounds: ProviderUsage[] = [];
    if (index === 1) provider.billed.length = 0;
    const flowRecord = await runRequestFlow({
      id: `r${index}`,
      request: original,
      target,
      optimize: (request, windowTokens, signal, targetKind) => pipeline.run(request, { windowTokens, signal, ...(targetKind ? { targetKind } : {}) }),
      retrieve: (handle) => stash.retrieve(handle),
      report: (chunk) => {
        if (chunk.type === 'usage') rounds.push(chunk.usage);
      },
      signal: new AbortController().signal,
      retrieveRounds: 4,
      logger: new RecordingLogger(),
      countTokens: (request) => tokens.countRequest(request),
    });
    const originalBill = bills.bill(target.information.id, 'openai', original);
    record = withCost(flowRecord, DEFAULT_PRICES, { ...(originalBill ? { original: originalBill } : {}), answerOutputTokens: rounds[rounds.length - 1]?.outputTokens });
  }
  return { record: record!, billed: provider.billed };
}

describe('figures that match the bill', () => {
  it('a turn with a retrieval round: with Herald is every round as the provider billed it, without Herald the original once', async () => {
    const { record, billed } = await session({ retrieve: true });
    assert.equal(record.rounds, 2);
    const providerTotal = billed.reduce((sum, usage) => addUsage(sum, usage), NO_USAGE);
    assert.deepEqual(record.usage, { inputTokens: providerTotal.inputTokens, cacheReadTokens: providerTotal.cacheReadTokens, cacheWriteTokens: 0, outputTokens: providerTotal.outputTokens });
    assert.equal(record.cost!.billedUsd, usageCost(providerTotal, DEFAULT_PRICES[PRICE_KEY]!), 'billed is what the provider reported for both rounds, cache reads at their price');
    const without = record.cost!.withoutHerald!;
    assert.equal(without.inputTokens! + without.cacheReadTokens!, record.tokensBefore, 'the original once (the fake counts as Herald does)');
    assert.equal(without.outputTokens, 30, 'the answer, not the retrieve call');
    assert.ok(without.cacheReadTokens! > 0, "the original's history was in the provider's cache from the turn before");
    assert.equal(record.cost!.unoptimizedUsd, usageCost(without, DEFAULT_PRICES[PRICE_KEY]!));
    // This retrieval re-sent the whole request with the original added: Herald sent more than going direct, and says so.
    assert.ok(record.tokensAfter > record.tokensBefore);
    assert.ok(record.cost!.billedUsd > record.cost!.unoptimizedUsd, 'and it cost more');
    const view = requestView(record);
    assert.ok(view.savedPercent < 0 && view.savedTokens < 0);
    assert.match(savingsPhrase(view.savedPercent), /% more$/);
    assert.match(moneyComparison(view.cost!.billedUsd, view.cost!.unoptimizedUsd), /^cost \$[\d.]+ more/);
  });

  it('a turn without a retrieval saves against the original sent once', async () => {
    const { record, billed } = await session({ retrieve: false });
    assert.equal(billed.length, 1);
    assert.ok(record.tokensAfter < record.tokensBefore);
    assert.ok(record.cost!.unoptimizedUsd > record.cost!.billedUsd);
    assert.match(moneyComparison(record.cost!.billedUsd, record.cost!.unoptimizedUsd), /^saved \$/);
  });

  it('the Decisions view, the status bar, /explain and the report show the same figures', async () => {
    const { record } = await session({ retrieve: true });
    const log = new DecisionLog();
    log.add(record);
    const totals = log.sessionTotals();
    const billed = usd(record.cost!.billedUsd);
    const without = usd(record.cost!.unoptimizedUsd);
    const view = requestView(record);
    assert.equal(view.cost!.billedUsd, record.cost!.billedUsd);
    assert.equal(view.cost!.unoptimizedUsd, record.cost!.unoptimizedUsd);
    const tooltip = statusText(totals, true).tooltip;
    assert.ok(tooltip.includes(moneyLine(record.cost!.billedUsd, record.cost!.unoptimizedUsd)), tooltip);
    assert.ok(tooltip.includes(`${record.tokensBefore.toLocaleString('en-US')} → ${record.tokensAfter.toLocaleString('en-US')} tokens`));
    assert.match(statusText(totals, true).text, /more$/, 'the status bar does not call a loss "saved"');
    const explained = explainRecord(record);
    assert.ok(explained.includes(billed) && explained.includes(without), explained);
    assert.match(explained.split('\n')[0]!, /over 2 requests \([\d.]+% more\)/);
    const csv = savingsReportCsv([record]).split('\r\n');
    const header = csv[0]!.split(',');
    const cell = (name: string): string => csv[1]!.split(',')[header.indexOf(name)]!;
    assert.equal(cell('billed_usd'), record.cost!.billedUsd.toFixed(6));
    assert.equal(cell('without_herald_usd'), record.cost!.unoptimizedUsd.toFixed(6));
    assert.equal(cell('round_tokens'), record.roundTokens!.join(' '));
    assert.equal(Number(cell('saved_tokens')), record.tokensBefore - record.tokensAfter);
  });

  it("Herald's own call is cost, never a request with savings", async () => {
    const { record } = await session({ retrieve: false });
    const log = new DecisionLog();
    log.add(record);
    const before = log.sessionTotals();
    const own = withCost({ ...record, id: 'own', origin: 'herald', model: 'Herald · fake · quality check' }, DEFAULT_PRICES);
    log.add(own);
    const after = log.sessionTotals();
    assert.equal(after.requests, before.requests, 'not one more request with savings');
    assert.equal(after.ownCalls, 1);
    assert.equal(after.tokensSaved, before.tokensSaved);
    assert.equal(after.billedUsd, before.billedUsd + own.cost!.billedUsd, 'its cost is counted');
    assert.equal(after.unoptimizedUsd, before.unoptimizedUsd, 'without Herald it would not exist');
    assert.equal(requestView(own).savedTokens, 0);
    assert.equal(log.last()?.id, record.id, "/explain explains the user's request");
  });

  it('/explain on a failed request says it failed before any share, with one full stop after the provider', () => {
    const failed: RequestRecord = { id: 'f', startedAt: 0, model: 'Herald · fake', status: 'failed', tokensBefore: 24_098, tokensAfter: 1_230, optimizeMs: 4, totalMs: 90, decisions: [], handles: [], retrievals: 0, replayedMessages: 0, error: 'Herald: endpoint "fake" answered 500: Sorry about that! The provider had a problem; try again in a moment.' };
    const text = explainRecord(failed);
    assert.match(text, /^\*\*Your last request, to Herald · fake\*\*, failed: nothing was saved\./);
    assert.doesNotMatch(text, /% saved/);
    assert.doesNotMatch(text, /\.\.|!\./);
  });
});

describe('what the provider would have billed without Herald', () => {
  it('reads what the turn before left in the cache, and primes a conversation it first sees mid-way the same', () => {
    const tokens = new TokenCounter();
    const first = conversation('Which line mentions 41?');
    const second: ChatRequest = { ...first, messages: [...first.messages, { role: 'assistant', parts: [{ type: 'text', text: 'Line 41.' }], contentShape: 'parts' }, { role: 'user', parts: [{ type: 'text', text: 'And 42?' }], contentShape: 'parts' }] };
    const continuous = new OriginalBills(tokens);
    continuous.bill('endpoint:fake', 'openai', first);
    const seen = continuous.bill('endpoint:fake', 'openai', second)!;
    const afterReload = new OriginalBills(tokens).bill('endpoint:fake', 'openai', second)!;
    assert.ok(seen.cacheReadTokens > 1024);
    assert.deepEqual(afterReload, seen, 'a window reload does not make the original look uncached');
    assert.equal(seen.freshTokens + seen.cacheReadTokens, tokens.countRequest(second));
    const opening = new OriginalBills(tokens).bill('endpoint:fake', 'openai', { ...first, messages: first.messages.slice(0, 2) })!;
    assert.equal(opening.cacheReadTokens, 0, "a conversation's first request is not cached");
  });
});

describe('a decision history saved before the figures counted every round', () => {
  it('is read, and its totals are worked out again from its records', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-figures-'));
    const file = path.join(folder, 'decisions.json');
    const record: RequestRecord = { id: 'a', startedAt: 0, model: 'm', status: 'optimized', tokensBefore: 1000, tokensAfter: 400, optimizeMs: 1, totalMs: 2, decisions: [], handles: [], retrievals: 0, replayedMessages: 0 };
    const oldTotals = { requests: 9, tokensBefore: 99_000, tokensAfter: 1, tokensSaved: 98_999, savedPercent: 100, retrievals: 0, failures: 0, cancelled: 0, premiumRequests: 0, billedUsd: 0, unoptimizedUsd: 5, pricedRequests: 0 };
    fs.writeFileSync(file, JSON.stringify({ schema: 1, totals: oldTotals, records: [record] }));
    const logger = new RecordingLogger();
    const read = readDecisionFile(file, logger)!;
    assert.deepEqual(read.totals, { ...EMPTY_TOTALS, requests: 1, tokensBefore: 1000, tokensAfter: 400, tokensSaved: 600, savedPercent: 60 });
    writeDecisionFile(file, read.records, read.totals);
    assert.deepEqual(readDecisionFile(file, logger)!.totals, read.totals, 'a file this version wrote keeps its totals');
    fs.rmSync(folder, { recursive: true, force: true });
  });
});
