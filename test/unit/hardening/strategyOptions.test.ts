/**
 * Every strategy alone, with its options pushed away from their defaults (thresholds lowered
 * so it acts on more, then raised; switches flipped), on generated hostile requests: it never
 * fails or is rejected, never drops or reorders a part, and everything expands back.
 */
import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { parseRequest, serializeRequest } from '../../../src/core/chat';
import { Pipeline, type PipelineConfig } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies, implementedStrategyIds } from '../../../src/core/strategies';
import { OUTPUT_SHAPING_NOTE } from '../../../src/core/strategies/outputShaping';
import { TokenCounter } from '../../../src/core/tokens';
import { expandsBack } from '../../support/replay';
import { hasSharedData, loadTrajectory, skipWithoutData, trajectoryNames, turnRequests } from '../../support/sharedData';
import { anthropicRequest, openAiRequest } from './generators';
import { partShape } from './requestShape';

const RUNS = Number(process.env.HERALD_FUZZ_RUNS ?? 60);
/** Cases per strategy, variant and format: the whole grid stays a few seconds by default. */
const CASES = Math.max(2, Math.floor(RUNS / 15));
const tokens = new TokenCounter(50_000);

type Variant = 'low' | 'high';

/** One option moved off its default: numbers scaled down or up (fractions stay within 0..1), booleans flipped. */
function moved(value: unknown, variant: Variant): unknown {
  if (typeof value === 'boolean') return !value;
  if (typeof value !== 'number') return value;
  if (value > 0 && value < 1) return variant === 'low' ? value / 4 : Math.min(1, value * 1.5);
  if (value === 0) return variant === 'low' ? 0 : 1;
  return variant === 'low' ? Math.max(1, Math.floor(value / 8)) : value * 4;
}

function config(id: string, defaults: Readonly<Record<string, unknown>>, variant: Variant): PipelineConfig {
  const enabled = Object.fromEntries(implementedStrategyIds().map((other) => [other, other === id]));
  const options = Object.fromEntries(Object.entries(defaults).map(([name, value]) => [name, moved(value, variant)]));
  return { enabled, options: Object.keys(options).length > 0 ? { [id]: options } : {} };
}

/** Two late turns of real agent runs, so each strategy meets content it acts on. */
function realBodies(): unknown[] {
  if (!hasSharedData()) return [];
  return [3, 4].map((which) => {
    const turns = turnRequests(loadTrajectory(trajectoryNames()[which]!));
    return turns[turns.length - 2];
  });
}

describe('hardening: each strategy alone with non-default options', function () {
  this.timeout(120_000);
  const strategies = createStrategies();
  const real = realBodies();
  /** Strategy id → runs where it changed the request, to show the grid exercised something. */
  const applied = new Map<string, number>();
  after(() => {
    if (process.env.HERALD_FUZZ_REPORT) console.log([...applied].map(([id, count]) => `${id}: ${count}`).join('\n'));
  });

  for (const strategy of strategies) {
    for (const variant of ['low', 'high'] as const) {
      it(`${strategy.id} (${variant} options): ${CASES * 2} generated requests stay whole and expand back`, async () => {
        const setup = config(strategy.id, strategy.defaults ?? {}, variant);
        const check = async (body: unknown): Promise<void> => {
          const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
          const pipeline = new Pipeline(createStrategies(), setup, { stash, tokens });
          const request = parseRequest(JSON.parse(JSON.stringify(body)));
          // A small window makes the budget strategies act too.
          const result = await pipeline.run(request, { windowTokens: variant === 'low' ? 2_000 : 200_000 });
          assert.deepEqual(result.decisions.filter((decision) => decision.status === 'failed' || decision.status === 'rejected' || decision.status === 'timeout').map((decision) => `${decision.strategy}: ${decision.reason}`), []);
          // output_shaping adds its one constant note (an addition, not an elision): set it aside.
          const wire = JSON.stringify(serializeRequest(result.request)).split(JSON.stringify(`\n\n${OUTPUT_SHAPING_NOTE}`).slice(1, -1)).join('');
          const optimized = parseRequest(JSON.parse(wire), request.format === 'anthropic' ? 'anthropic' : 'openai');
          assert.deepEqual(partShape(optimized), partShape(request));
          assert.ok(await expandsBack(request, optimized, stash), 'every marker expands back to the original text');
          if (result.decisions.some((decision) => decision.status === 'applied')) applied.set(strategy.id, (applied.get(strategy.id) ?? 0) + 1);
        };
        for (const body of real) await check(body);
        await fc.assert(fc.asyncProperty(openAiRequest, check), { numRuns: CASES, seed: 100 + strategy.id.length });
        await fc.assert(fc.asyncProperty(anthropicRequest, check), { numRuns: CASES, seed: 200 + strategy.id.length });
      });
    }
  }

  it('the grid exercised the strategies: most of them changed at least one request', function () {
    skipWithoutData(this);
    assert.ok(applied.size >= 10, `only ${[...applied.keys()].join(', ')} acted`);
  });
});
