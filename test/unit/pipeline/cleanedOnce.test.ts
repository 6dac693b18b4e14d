import { strict as assert } from 'node:assert';
import { parseRequest, type ChatRequest } from '../../../src/core/chat';
import { cleaningsRemembered, forgetCleanings } from '../../../src/core/content';
import { Pipeline, type Strategy } from '../../../src/core/pipeline';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens';
import { newStash } from './fakes';

/** A session Herald has not seen, whose history holds `logs` command logs of 100 lines each. */
function logHistory(logs: number): ChatRequest {
  const messages: unknown[] = [{ role: 'user', content: 'Find the failing job.' }];
  for (let turn = 0; turn < logs; turn++) {
    const output = Array.from({ length: 100 }, (_, line) => `2026-03-0${1 + turn}T10:${String(line % 60).padStart(2, '0')}:00Z ${line % 97 === 0 ? 'ERROR' : 'INFO'} worker-${line % 7} job ${turn * 1000 + line} took ${(line * 37) % 900} ms`).join('\n');
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Bash', input: { command: `cat part${turn}.log` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: output }] });
  }
  return parseRequest({ model: 'claude-sonnet-4-5', max_tokens: 100, messages });
}

describe('pipeline: a tool output is cleaned once a run', () => {
  it('cleans each log once, though two strategies clean it and the batch rule runs the strategies twice', async () => {
    const applied = new Map<string, number>();
    // The default strategies, each counting its runs.
    const strategies: Strategy[] = createStrategies().map((strategy) => ({
      ...strategy,
      apply: (request, context) => {
        applied.set(strategy.id, (applied.get(strategy.id) ?? 0) + 1);
        return strategy.apply(request, context);
      },
    }));
    forgetCleanings();
    const result = await new Pipeline(strategies, {}, { stash: newStash(), tokens: new TokenCounter() }).run(logHistory(4));
    // Cached history whose rewrites were refused one by one is decided again as one batch: a second pass.
    assert.equal(applied.get('command_digest'), 2);
    assert.equal(applied.get('context_compression'), 2);
    const digest = result.decisions.find((decision) => decision.strategy === 'command_digest')!;
    assert.equal(digest.handles.length, 4, 'each log is digested');
    // Four logs, four cleanings. With nothing remembered this run cleaned ten times: command_digest
    // and context_compression in the first pass, command_digest again in the batch pass.
    assert.deepEqual(cleaningsRemembered(), { texts: 4, computed: 4 });
  });
});
