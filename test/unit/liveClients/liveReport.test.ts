import { strict as assert } from 'node:assert';
import { clientOutputsDiffer } from '../../support/liveClients/liveReport';
import type { TaskScript } from '../../support/liveClients/agentScript';
import type { RunResult } from '../../support/liveClients/liveRun';
import type { ProviderRecord } from '../../support/liveClients/scriptedProvider';

const task: TaskScript = { id: 'seq-task', set: 'tuning', length: 'short', prompt: '[task:seq-task] count', steps: [], answer: 'done' };

/** A Chat Completions request of the task whose conversation ends with the output of one shell call. */
function record(index: number, step: number, output: string): ProviderRecord {
  const body = {
    model: 'qwen', messages: [
      { role: 'user', content: task.prompt },
      { role: 'assistant', content: null, tool_calls: [{ id: `call_${step}`, type: 'function', function: { name: 'run_shell_command', arguments: '{"command":"seq 1 2500"}' } }] },
      { role: 'tool', tool_call_id: `call_${step}`, content: output },
    ],
  };
  return { index, receivedAt: index, api: 'chat', method: 'POST', path: '/v1/chat/completions', model: 'qwen', body, task: task.id, kind: 'call', step };
}

function run(way: 'direct' | 'herald', records: ProviderRecord[]): RunResult {
  return { way, records, client: { finalText: 'done', exitCode: 0, timedOut: false, durationMs: 1, stdout: '', stderr: '' }, turns: [], heraldOutput: '' };
}

describe('live report: the client\'s own outputs, both ways', () => {
  const full = `Output: ${Array.from({ length: 2500 }, (_, index) => index + 1).join('\n')}`;

  it('flags a step whose output through Herald is longer than straight to the provider (the client ran differently)', () => {
    const differ = clientOutputsDiffer(run('direct', [record(0, 1, 'Output: (empty)')]), run('herald', [record(0, 1, full)]), task);
    assert.match(differ ?? '', /^step 1: 15 characters straight to the provider, \d+ through Herald$/);
  });

  it('takes alike outputs, and outputs Herald shortened or marked, as the same run', () => {
    assert.equal(clientOutputsDiffer(run('direct', [record(0, 1, full)]), run('herald', [record(0, 1, full)]), task), undefined);
    assert.equal(clientOutputsDiffer(run('direct', [record(0, 1, full)]), run('herald', [record(0, 1, 'Output: 1\n2\n… 2500')]), task), undefined);
    assert.equal(clientOutputsDiffer(run('direct', [record(0, 1, 'short')]), run('herald', [record(0, 1, `[herald: digest · retrieve hr_x] ${full}`)]), task), undefined);
  });
});
