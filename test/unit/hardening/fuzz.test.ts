/**
 * Property-based hardening: generated hostile requests (unknown parts, empty and binary
 * content, lone surrogates, NUL bytes, deep JSON, megabyte lines, mismatched tool ids) must
 * round-trip through the converters, never make the default pipeline throw, never drop or
 * reorder a part, and always expand back to the original.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { expandRequest } from '../../../src/cli/expandCommand';
import { fromAnthropic, fromOpenAI, parseRequest, partText, serializeRequest, toAnthropic, toOpenAI } from '../../../src/core/chat';
import { expandsBack } from '../../support/replay';
import { Pipeline } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens';
import { anthropicRequest, deepAnthropicRequest, longOpenAiSession, openAiRequest } from './generators';
import { partShape } from './requestShape';

const RUNS = Number(process.env.HERALD_FUZZ_RUNS ?? 60);
// One counter for every case: its memo is what keeps a 3,000-message session from being recounted per strategy.
const tokens = new TokenCounter(50_000);


async function checkPipeline(body: unknown): Promise<void> {
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  const pipeline = new Pipeline(createStrategies(), {}, { stash, tokens });
  const request = parseRequest(JSON.parse(JSON.stringify(body)));
  const result = await pipeline.run(request);
  const failures = result.decisions.filter((decision) => decision.status === 'failed' || decision.status === 'rejected');
  assert.deepEqual(failures.map((decision) => `${decision.strategy}: ${decision.reason}`), [], 'no strategy may fail or be rejected on valid input');
  const optimized = parseRequest(JSON.parse(JSON.stringify(serializeRequest(result.request))), request.format === 'anthropic' ? 'anthropic' : 'openai');
  // Text-only part-type changes are allowed (an image swapped for its text); count and order are not.
  assert.deepEqual(partShape(optimized), partShape(request));
  // Every text expands back; cache breakpoints and option caps (cache_optimizer, param_tuning) are not content.
  assert.ok(await expandsBack(request, optimized, stash), 'every marker expands back to the original text');
  const expanded = await expandRequest(result.request, stash);
  assert.deepEqual(expanded.messages.map((message) => message.parts.map(partText)), request.messages.map((message) => message.parts.map(partText)));
}

describe('hardening: generated hostile requests', function () {
  this.timeout(120_000);

  it(`OpenAI requests round-trip through the converter (${RUNS * 3} cases)`, () => {
    fc.assert(fc.property(openAiRequest, (body) => {
      const copy = JSON.parse(JSON.stringify(body)) as unknown;
      assert.deepEqual(toOpenAI(fromOpenAI(copy)), copy);
    }), { numRuns: RUNS * 3, seed: 42 });
  });

  it(`Anthropic requests round-trip through the converter (${RUNS * 3} cases)`, () => {
    fc.assert(fc.property(anthropicRequest, (body) => {
      const copy = JSON.parse(JSON.stringify(body)) as unknown;
      assert.deepEqual(toAnthropic(fromAnthropic(copy)), copy);
    }), { numRuns: RUNS * 3, seed: 43 });
  });

  it(`the default pipeline never throws, keeps every part in place and expands back (OpenAI, ${RUNS} cases)`, async () => {
    await fc.assert(fc.asyncProperty(openAiRequest, checkPipeline), { numRuns: RUNS, seed: 44 });
  });

  it(`the default pipeline never throws, keeps every part in place and expands back (Anthropic, ${RUNS} cases)`, async () => {
    await fc.assert(fc.asyncProperty(anthropicRequest, checkPipeline), { numRuns: RUNS, seed: 45 });
  });

  it(`long sessions (1,000-3,000 messages, mismatched ids, nesting up to 3,000 deep) round-trip and survive the pipeline (${Math.max(1, Math.floor(RUNS / 60))} cases)`, async () => {
    await fc.assert(fc.asyncProperty(longOpenAiSession, async (body) => {
      const copy = JSON.parse(JSON.stringify(body)) as unknown;
      assert.deepEqual(toOpenAI(fromOpenAI(copy)), copy);
      await checkPipeline(body);
    }), { numRuns: Math.max(1, Math.floor(RUNS / 60)), seed: 46 });
  });

  it(`Anthropic requests nested up to 3,000 deep with unpaired tool ids round-trip and survive the pipeline (${Math.ceil(RUNS / 6)} cases)`, async () => {
    await fc.assert(fc.asyncProperty(deepAnthropicRequest, async (body) => {
      const copy = JSON.parse(JSON.stringify(body)) as unknown;
      assert.deepEqual(toAnthropic(fromAnthropic(copy)), copy);
      await checkPipeline(body);
    }), { numRuns: Math.ceil(RUNS / 6), seed: 47 });
  });

  it('survives a 2,000-message session and a 10 MB tool output', async () => {
    const messages: unknown[] = [{ role: 'system', content: 'agent' }, { role: 'user', content: 'task' }];
    for (let index = 0; index < 1000; index++) {
      messages.push({ role: 'assistant', content: null, tool_calls: [{ id: `c${index}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: `cat file${index % 50}.txt` }) } }] });
      messages.push({ role: 'tool', tool_call_id: `c${index}`, content: index === 500 ? 'y'.repeat(10 * 1024 * 1024) : `contents of file ${index % 50}\n`.repeat(20) });
    }
    await checkPipeline({ model: 'gpt-4o', messages });
  });
});
