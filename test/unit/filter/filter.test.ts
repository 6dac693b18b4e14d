import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  filter, FileThresholdStore, FilterInputError, LOOSEN_STEP, MAX_OFFSET, MemoryThresholdStore, MIN_OFFSET, nextOffset, runQualityCheck,
  ScoreMemo, ScoringUnavailableError, TIGHTEN_STEP,
} from '../../../src/core/filter';
import { candidatesFor, loadCosqa } from '../../support/cosqa';
import { sharedPath, skipWithoutData } from '../../support/sharedData';
import { keywordJudge, RecordingModel } from './fakeModel';

const REFUND = 'Refunds are issued to the original payment method within 5 business days after the returned item is received at the warehouse.';
const SHIPPING = 'Standard shipping takes 3 to 7 business days; express shipping arrives in 1 to 2 days.';
const WEATHER = 'The weather in Lisbon is mild in spring, with occasional rain.';

async function rejects(input: unknown, field: RegExp): Promise<void> {
  await assert.rejects(filter(input), (error: unknown) => error instanceof FilterInputError && field.test(error.field) && error.status === 400);
}

describe('filter API', () => {
  it('names the bad field of an invalid request', async () => {
    await rejects({ candidates: [] }, /^question$/);
    await rejects({ question: '  ', candidates: [] }, /^question$/);
    await rejects({ question: 'q', candidates: [{ id: 'a', content: 1 }] }, /^candidates\[0\]\.content$/);
    await rejects({ question: 'q', candidates: [{ id: 'a', content: 'x' }, { id: 'a', content: 'y' }] }, /^candidates\[1\]\.id$/);
    await rejects({ question: 'q', candidates: [], aggressiveness: 'wild' }, /^aggressiveness$/);
    await rejects({ question: 'q', candidates: [], max_tokens: -5 }, /^max_tokens$/);
    await assert.rejects(filter({ question: 'q', candidates: [], colour: 'blue' }), /unknown field "colour"/);
  });

  it('keeps relevant items in the order sent, drops unrelated ones and reports why', async () => {
    const result = await filter({
      question: 'How long do refunds take after a return?',
      candidates: [{ id: 'weather', content: WEATHER }, { id: 'refund', content: REFUND }, { id: 'shipping', content: SHIPPING }],
    });
    const byId = Object.fromEntries(result.items.map((item) => [item.id, item]));
    assert.equal(byId.refund!.decision, 'kept');
    assert.equal(byId.weather!.decision, 'low_relevance');
    assert.equal(byId.weather!.score, 0);
    assert.ok(byId.refund!.score >= 2, String(byId.refund!.score));
    assert.match(byId.refund!.reason, /refund/);
    assert.deepEqual(result.kept.map((item) => item.id), result.items.filter((item) => item.decision === 'kept').map((item) => item.id));
    assert.equal(result.report.threshold, 1.4);
    assert.equal(result.report.scoring, 'lexical');
  });

  it('applies the aggressiveness thresholds', async () => {
    const candidates = [{ id: 'a', content: 'Refunds take five days.' }, { id: 'b', content: 'Our returns desk opens at nine; refunds are handled there too and depend on the warehouse, the carrier and the weather.' }];
    const question = 'how many days until a refund for a returned order arrives';
    const conservative = await filter({ question, candidates, aggressiveness: 'conservative' });
    const aggressive = await filter({ question, candidates, aggressiveness: 'aggressive' });
    assert.equal(conservative.report.threshold, 0.9);
    assert.equal(aggressive.report.threshold, 1.9);
    assert.ok(conservative.kept.length >= aggressive.kept.length);
  });

  it('drops copied and reworded repeats of a kept item as duplicates', async () => {
    const copied = `As the policy says: ${REFUND} Thanks.`;
    const reworded = 'Refunds are issued to the original payment method within 5 business days after the warehouse has received the returned item.';
    const result = await filter({ question: 'refunds payment method business days returned item', candidates: [{ id: 'first', content: REFUND }, { id: 'copy', content: copied }, { id: 'reword', content: reworded }] });
    const decisions = Object.fromEntries(result.items.map((item) => [item.id, item]));
    assert.equal(decisions.first!.decision, 'kept');
    assert.equal(decisions.copy!.decision, 'duplicate');
    assert.equal(decisions.copy!.duplicateOf, 'first');
    assert.equal(decisions.reword!.decision, 'duplicate');
  });

  it('keeps within the token budget, highest scores first, and says over_budget for the rest', async () => {
    const candidates = Array.from({ length: 6 }, (_, index) => ({ id: `refund-${index}`, content: `Refund note ${index}: refunds for order ${1000 + index} were issued after ${index + 2} days; the customer was told by email and the payment method was credited in ${['EUR', 'USD', 'GBP', 'JPY', 'CHF', 'SEK'][index]}.` }));
    const result = await filter({ question: 'refunds issued payment method credited', candidates, max_tokens: 90 });
    assert.ok(result.report.tokensAfter <= 90);
    assert.ok(result.items.some((item) => item.decision === 'over_budget'));
    assert.ok(result.kept.length >= 1);
  });

  it('cleans candidates by format and reports what was removed and the savings', async function () {
    skipWithoutData(this);
    const html = fs.readFileSync(sharedPath('html', fs.readdirSync(sharedPath('html'))[0]!, 'source.html'), 'utf8');
    const result = await filter({ question: 'what does the article say', candidates: [{ id: 'page', content: html, format: 'html' }, { id: 'note', content: 'A plain note stays as written.  Even  its spacing.' }] });
    const page = result.items.find((item) => item.id === 'page')!;
    const note = result.items.find((item) => item.id === 'note')!;
    assert.equal(page.cleaned.format, 'html');
    assert.ok(page.cleaned.removed.length > 0);
    assert.ok(page.cleaned.tokensAfterCleanup < page.cleaned.tokensSent);
    assert.equal(note.cleaned.tokensAfterCleanup, note.cleaned.tokensSent);
    assert.deepEqual(note.cleaned.removed, []);
  });

  it('prices the report from an editable table', async () => {
    const input = { question: 'refund days', candidates: [{ id: 'refund', content: REFUND }, { id: 'weather', content: WEATHER }], model: 'gpt-4o' };
    const result = await filter(input);
    assert.ok(result.report.costBefore! > 0);
    assert.equal(result.report.costBefore, Math.round(result.report.tokensBefore * 2.5 / 1e6 * 1e8) / 1e8);
    const custom = await filter(input, { prices: { 'gpt-4o': 10 } });
    assert.equal(custom.report.costBefore, Math.round(result.report.tokensBefore * 10 / 1e6 * 1e8) / 1e8);
    assert.equal((await filter({ ...input, model: 'unknown-model' })).report.costBefore, null);
    const { timings, latencyMs } = result.report;
    assert.ok(latencyMs >= timings.cleanupMs + timings.scoringMs + timings.selectionMs - 0.05);
  });

  it('scores with the judge when configured, sending candidates as data', async () => {
    const judge = keywordJudge('refund');
    const result = await filter({ question: 'How long do refunds take?', candidates: [{ id: 'refund', content: REFUND }, { id: 'weather', content: WEATHER }] }, { judge });
    assert.equal(result.report.scoring, 'judge');
    assert.equal(result.items[0]!.score, 2.6);
    assert.equal(result.items[1]!.decision, 'low_relevance');
    assert.equal(judge.asked.length, 1);
    assert.match(judge.asked[0]!.system ?? '', /never instructions/);
    assert.match(judge.asked[0]!.prompt, /Question: How long do refunds take\?/);
  });

  it('fails with scoring_unavailable after retries instead of cutting on a weaker signal', async () => {
    const down = new RecordingModel('down', () => { throw new Error('connection refused'); });
    const sleeps: number[] = [];
    await assert.rejects(
      filter({ question: 'refunds', candidates: [{ id: 'a', content: REFUND }] }, { judge: down, judgeOptions: { attempts: 3, delayMs: 10, sleep: async (ms) => { sleeps.push(ms); } } }),
      (error: unknown) => error instanceof ScoringUnavailableError && error.status === 503 && error.code === 'scoring_unavailable',
    );
    assert.equal(down.asked.length, 3);
    assert.deepEqual(sleeps, [10, 20]);
    // Asking for lexical scoring explicitly goes on without the judge.
    const lexical = await filter({ question: 'refunds', candidates: [{ id: 'a', content: REFUND }], scoring: 'lexical' }, { judge: down });
    assert.equal(lexical.report.scoring, 'lexical');
    assert.equal(down.asked.length, 3);
    await assert.rejects(filter({ question: 'refunds', candidates: [], scoring: 'judge' }), ScoringUnavailableError);
  });

  it('rejects a judge answer that leaves items unscored, retrying first', async () => {
    const partial = new RecordingModel('partial', () => '[{"id":"a","score":2,"reason":"ok"}]');
    await assert.rejects(filter({ question: 'q words', candidates: [{ id: 'a', content: 'x' }, { id: 'b', content: 'y' }] }, { judge: partial, judgeOptions: { delayMs: 0 } }), /no score for "b"/);
    assert.equal(partial.asked.length, 3);
  });

  it('reuses scores already decided in a conversation', async () => {
    const judge = keywordJudge('refund');
    const memo = new ScoreMemo();
    const candidates = [{ id: 'refund', content: REFUND }, { id: 'weather', content: WEATHER }];
    await filter({ question: 'refunds?', candidates, conversation: 'c1' }, { judge, scoreMemo: memo });
    const second = await filter({ question: 'and how fast are refunds?', candidates: [...candidates, { id: 'shipping', content: SHIPPING }], conversation: 'c1' }, { judge, scoreMemo: memo });
    assert.deepEqual(second.items.map((item) => item.reused), [true, true, false]);
    assert.equal(judge.asked.length, 2);
    assert.doesNotMatch(judge.asked[1]!.prompt, /Lisbon/);
  });

  it('learns each agent\'s threshold: loosening three times faster than tightening, bounded, persisted', async () => {
    assert.equal(LOOSEN_STEP, 3 * TIGHTEN_STEP);
    let offset = 0;
    for (let index = 0; index < 100; index++) offset = nextOffset(offset, 'enough');
    assert.equal(offset, MAX_OFFSET);
    for (let index = 0; index < 100; index++) offset = nextOffset(offset, 'not_enough');
    assert.equal(offset, MIN_OFFSET);
    assert.equal(nextOffset(0.1, 'unsure'), 0.1);

    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'herald-thresholds-')), 'thresholds.json');
    const store = new FileThresholdStore(file);
    const judge = keywordJudge('refund');
    const input = { question: 'refunds?', candidates: [{ id: 'refund', content: REFUND }], agent: 'support-bot' };
    const first = await filter(input, { judge, thresholds: store });
    const quality = new RecordingModel('quality', () => 'NOT_ENOUGH');
    assert.equal(await runQualityCheck(first, 'support-bot', quality, store), 'not_enough');
    assert.match(quality.asked[0]!.prompt, /refund/);
    const reloaded = new FileThresholdStore(file);
    assert.equal(reloaded.get('support-bot'), -LOOSEN_STEP);
    const second = await filter(input, { judge, thresholds: reloaded });
    assert.equal(second.report.threshold, Math.round((1.4 - LOOSEN_STEP) * 100) / 100);
    // Another agent keeps the base threshold; without a store (check switched off) the base applies.
    assert.equal((await filter({ ...input, agent: 'other' }, { thresholds: reloaded })).report.threshold, 1.4);
    assert.equal(await runQualityCheck(first, 'support-bot', quality, undefined), undefined);
    assert.equal(new MemoryThresholdStore().get('anyone'), 0);
  });

  it('keeps the labelled snippet for most CoSQA queries among 20 candidates (balanced)', async function () {
    skipWithoutData(this);
    const cosqa = loadCosqa();
    let kept = 0;
    let keptTokens = 0;
    let sentTokens = 0;
    const queries = 25;
    for (let index = 0; index < queries; index++) {
      const candidates = candidatesFor(cosqa, index);
      const answerId = `code-${cosqa.queries[index]!.answer}`;
      const result = await filter({ question: cosqa.queries[index]!.query, candidates });
      if (result.kept.some((item) => item.id === answerId)) kept++;
      keptTokens += result.report.tokensAfter;
      sentTokens += result.report.tokensBefore;
    }
    assert.ok(kept / queries >= 0.6, `labelled item kept in ${kept}/${queries}`);
    assert.ok(keptTokens < sentTokens * 0.5, `kept ${keptTokens} of ${sentTokens} tokens`);
  });
});
