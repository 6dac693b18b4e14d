import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../chat';
import { loadTrajectory, skipWithoutData } from '../../../test/support/sharedData';
import { replay } from '../../../test/support/replay';
import { countBreakpoints, createCacheOptimizer, MAX_BREAKPOINTS } from './cacheOptimizer';
import { STRATEGY_ORDER } from './index';
import { createAuditedHoldout } from './auditedHoldout';
import { createCacheLint } from './cacheLint';
import { createContentCensus } from './contentCensus';
import { createContextQuality } from './contextQuality';
import { createOutputShaping } from './outputShaping';
import { createParamTuning } from './paramTuning';
import { createProviderContextTrim } from './providerContextTrim';
import { createReasoningBudget } from './reasoningBudget';
import { createSemanticCache } from './semanticCache';
import { createToolCatalog } from './toolCatalog';
import { createToolSchemaCompression } from './toolSchemaCompression';
import { pipelineOf, toolCallingTurns } from '../../../test/support/agentFixtures';

/** The same list in a different order each turn, as some clients send it. */
function rotate<T>(list: readonly T[], by: number): T[] {
  return [...list.slice(by % list.length), ...list.slice(0, by % list.length)];
}

/** A message with string content written as one text block, the form a breakpoint needs. */
function asBlocks(message: unknown): unknown {
  const value = message as { role: string; content: unknown };
  return typeof value.content === 'string' ? { ...value, content: [{ type: 'text', text: value.content }] } : value;
}

describe('cache_optimizer', () => {
  it('writes the tools block in one byte-identical order every turn even when the client reorders it (OpenAI)', async function () {
    skipWithoutData(this);
    const bodies = toolCallingTurns(loadTrajectory('astropy__astropy-12907'), 'openai', { maxTurns: 6 }).map((body, turn) => ({ ...body, tools: rotate(body.tools as unknown[], turn * 3) }));
    const { pipeline } = pipelineOf([createCacheOptimizer()]);
    const blocks: string[] = [];
    for (const body of bodies) {
      const result = await pipeline.run(parseRequest(body));
      const wire = serializeRequest(result.request);
      blocks.push(JSON.stringify(wire.tools));
      assert.equal(JSON.stringify(wire).includes('cache_control'), false, 'no Anthropic hints in an OpenAI request');
    }
    assert.notEqual(JSON.stringify(bodies[0]!.tools), JSON.stringify(bodies[1]!.tools));
    for (const block of blocks) assert.equal(block, blocks[0]);
  });

  it('adds three Anthropic breakpoints (tools, system, tail) and keeps the prefix stable over a real trajectory', async function () {
    skipWithoutData(this);
    const bodies = toolCallingTurns(loadTrajectory('astropy__astropy-12907'), 'anthropic', { maxTurns: 10 });
    const { pipeline, stash, tokens } = pipelineOf([createToolCatalog(), createToolSchemaCompression(), createCacheOptimizer()]);
    const summary = await replay(pipeline, stash, bodies, tokens);
    assert.equal(summary.prefixStableTurns, bodies.length, 'every turn repeats the previous optimized prefix');
    let previousTools = '';
    for (const turn of summary.turns) {
      const wire = serializeRequest(turn.optimized);
      assert.equal(countBreakpoints(turn.optimized), 3);
      assert.ok(countBreakpoints(turn.optimized) <= MAX_BREAKPOINTS);
      const tools = wire.tools as Record<string, unknown>[];
      assert.deepEqual(tools[tools.length - 1]!.cache_control, { type: 'ephemeral' });
      assert.deepEqual((wire.system as Record<string, unknown>[])[0]!.cache_control, { type: 'ephemeral' });
      const messages = wire.messages as { content: Record<string, unknown>[] | string }[];
      const tail = messages[messages.length - 1]!.content as Record<string, unknown>[];
      assert.deepEqual(tail[tail.length - 1]!.cache_control, { type: 'ephemeral' });
      if (previousTools) assert.equal(JSON.stringify(tools), previousTools, 'tools block byte-identical turn to turn');
      previousTools = JSON.stringify(tools);
      // Content is never changed: only hints were added.
      const stripped = JSON.parse(JSON.stringify(wire.messages, (key, value: unknown) => (key === 'cache_control' ? undefined : value))) as unknown[];
      const original = bodies[summary.turns.indexOf(turn)]!.messages as unknown[];
      assert.deepEqual(stripped.map(asBlocks), original.map(asBlocks));
    }
  });

  it('backs off entirely when the client places its own breakpoints', async () => {
    const body = {
      model: 'claude-sonnet-4-5', max_tokens: 1024,
      system: [{ type: 'text', text: 'You are a careful coding agent. '.repeat(200), cache_control: { type: 'ephemeral' } }],
      messages: [{ role: 'user', content: 'fix the failing test' }],
      tools: [{ name: 'zeta', input_schema: {} }, { name: 'alpha', input_schema: {} }],
    };
    const { pipeline } = pipelineOf([createCacheOptimizer()]);
    const result = await pipeline.run(parseRequest(body));
    assert.equal(result.decisions[0]!.action, 'client-caching-respected');
    assert.deepEqual(serializeRequest(result.request), body);
  });

  it('adds no breakpoints to a request too small to be cached', async () => {
    const { pipeline } = pipelineOf([createCacheOptimizer()]);
    const small = await pipeline.run(parseRequest({ model: 'claude-haiku-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }, 'anthropic'));
    assert.equal(countBreakpoints(small.request), 0);
    const large = await pipeline.run(parseRequest({ model: 'claude-haiku-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'word '.repeat(1500) }] }, 'anthropic'));
    assert.equal(countBreakpoints(large.request), 1, 'the same request over the size gets its tail breakpoint');
  });

  for (const format of ['openai', 'anthropic'] as const) {
    it(`keeps every turn's prefix byte-identical with all of this group's strategies on, pins included (${format})`, async function () {
      skipWithoutData(this);
      const extra = format === 'anthropic' ? { max_tokens: 200000, thinking: { type: 'enabled', budget_tokens: 32000 } } : { max_completion_tokens: 200000, reasoning_effort: 'high' };
      const bodies = toolCallingTurns(loadTrajectory('astropy__astropy-14508'), format, { extra, maxTurns: 16 });
      const group = [createAuditedHoldout(), createSemanticCache(), createContentCensus(), createProviderContextTrim(), createToolCatalog(), createToolSchemaCompression(),
        createParamTuning(), createReasoningBudget(), createOutputShaping(), createContextQuality(), createCacheLint(), createCacheOptimizer()]
        .sort((a, b) => STRATEGY_ORDER.indexOf(a.id as never) - STRATEGY_ORDER.indexOf(b.id as never));
      const { pipeline, stash, tokens } = pipelineOf(group, { provider_context_trim: { triggerTokens: 6000 }, audited_holdout: { share: 0 } });
      const summary = await replay(pipeline, stash, bodies, tokens);
      assert.equal(summary.prefixStableTurns, bodies.length);
      const tools = summary.turns.map((turn) => JSON.stringify(serializeRequest(turn.optimized).tools));
      for (const block of tools) assert.equal(block, tools[0]);
      for (const turn of summary.turns) {
        assert.equal(turn.decisions.filter((decision) => decision.status === 'failed' || decision.status === 'rejected').length, 0);
        assert.ok(countBreakpoints(turn.optimized) <= MAX_BREAKPOINTS);
      }
      const last = summary.turns[summary.turns.length - 1]!.optimized.options;
      if (format === 'anthropic') assert.equal(last.max_tokens, 65536);
      else assert.equal(last.max_completion_tokens, 65536);
    });
  }
});
