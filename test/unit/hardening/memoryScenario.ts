/**
 * A child process for the hardening bench: runs one large input through the default pipeline
 * and prints its peak memory as JSON (`process.resourceUsage().maxRSS` is the kernel's peak;
 * heap is sampled at every strategy boundary and on a timer). Run it with a bounded heap
 * (`--max-old-space-size`) to prove the run fits.
 *
 *     node --max-old-space-size=768 --import tsx test/unit/hardening/memoryScenario.ts tool-output-10mb
 */
import { parseRequest } from '../../../src/core/chat';
import { Pipeline, type Strategy } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens';

/** The scenarios the bench measures, by name. */
export const SCENARIOS: Readonly<Record<string, () => unknown>> = {
  /** One 10 MB tool output (varied log lines, so no cleaner gets it for free) in history. */
  'tool-output-10mb': () => {
    const lines: string[] = [];
    for (let index = 0, size = 0; size < 10 * 1024 * 1024; index++) {
      const line = `2026-01-01T00:${String(Math.floor(index / 60) % 60).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}Z ${index % 97 === 0 ? 'ERROR' : 'INFO'} worker-${index % 13} request ${index * 7919 % 100003} took ${index % 500} ms path=/api/v${index % 3}/items/${index}`;
      lines.push(line);
      size += line.length + 1;
    }
    return {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'You are a coding agent.' },
        { role: 'user', content: 'Why do requests time out?' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat service.log"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: lines.join('\n') },
        { role: 'assistant', content: 'The log is long; looking at errors.' },
        { role: 'user', content: 'Go on.' },
      ],
    };
  },
  /** 2,000 messages: 1,000 tool calls and results reading 50 files, the usual agent shape. */
  'session-2000-messages': () => {
    const messages: unknown[] = [{ role: 'system', content: 'You are a coding agent.' }, { role: 'user', content: 'Refactor the billing module.' }];
    for (let index = 0; messages.length < 2000; index++) {
      messages.push({ role: 'assistant', content: `Step ${index}.`, tool_calls: [{ id: `c${index}`, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command: `cat src/file${index % 50}.ts` }) } }] });
      messages.push({ role: 'tool', tool_call_id: `c${index}`, content: Array.from({ length: 40 }, (_, line) => `export const value${line}_${index % 50} = compute(${line}, "${index % 50}");`).join('\n') });
    }
    return { model: 'gpt-4o', messages: [...messages, { role: 'user', content: 'Continue.' }] };
  },
};

async function main(name: string): Promise<void> {
  const build = SCENARIOS[name];
  if (!build) throw new Error(`Herald bench: unknown scenario "${name}" (known: ${Object.keys(SCENARIOS).join(', ')})`);
  let peakHeap = 0;
  const sample = (): void => {
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  };
  const timer = setInterval(sample, 5);
  const baseline = process.memoryUsage();
  const body = build();
  const inputBytes = JSON.stringify(body).length;
  const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
  // Sample between strategies too: a synchronous strategy blocks the timer.
  const strategies: Strategy[] = createStrategies().map((strategy) => ({
    id: strategy.id,
    defaultEnabled: strategy.defaultEnabled,
    kind: strategy.kind,
    touchesFresh: strategy.touchesFresh,
    rewritesFrozen: strategy.rewritesFrozen,
    defaults: strategy.defaults,
    apply: async (request, context) => {
      sample();
      const result = await strategy.apply(request, context);
      sample();
      return result;
    },
  }));
  const started = performance.now();
  const result = await new Pipeline(strategies, { timeLimitMs: 60_000 }, { stash, tokens: new TokenCounter(5_000) }).run(parseRequest(body));
  const durationMs = performance.now() - started;
  sample();
  clearInterval(timer);
  const failed = result.decisions.filter((decision) => decision.status === 'failed' || decision.status === 'timeout').map((decision) => decision.strategy);
  process.stdout.write(JSON.stringify({
    scenario: name,
    inputBytes,
    baselineRssBytes: baseline.rss,
    peakRssBytes: process.resourceUsage().maxRSS * 1024,
    peakHeapBytes: peakHeap,
    durationMs,
    tokensBefore: result.tokensBefore,
    tokensAfter: result.tokensAfter,
    failed,
  }) + '\n');
}

if (require.main === module) {
  main(process.argv[2] ?? '').catch((error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.stack : String(error)}\n`);
    process.exitCode = 1;
  });
}
