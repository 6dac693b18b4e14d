/**
 * The gateway warms its optimizer before it listens (src/gateway/warmUp.ts): the sample session
 * runs through the strategies once, as a forwarded request, and nothing of that run reaches the
 * store, the records, the decisions file or the provider.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sampleRequest } from '../../../src/cli/sample';
import type { ChatRequest } from '../../../src/core/chat/types';
import type { Strategy, StrategyContext } from '../../../src/core/pipeline/types';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { warmUp } from '../../../src/core/pipeline/warmUp';
import { records, startHarness } from './harness';
import { chatCompletion } from './providerAnswers';

function recordingStrategy(seen: { request: ChatRequest; targetKind: string | undefined }[]): Strategy {
  return {
    id: 'recording',
    defaultEnabled: true,
    kind: 'signal',
    apply(request: ChatRequest, context: StrategyContext) {
      seen.push({ request, targetKind: context.targetKind });
      return { request, action: 'seen', reason: 'recorded' };
    },
  };
}

/** Every file under a folder, recursively (none when it does not exist). */
function filesUnder(folder: string): string[] {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => (entry.isDirectory() ? filesUnder(path.join(folder, entry.name)) : [path.join(folder, entry.name)]));
}

describe('gateway: the optimizer warmed before it listens', function () {
  this.timeout(60_000);

  it('runs the sample session through every strategy once, as a request Herald forwards', async () => {
    const seen: { request: ChatRequest; targetKind: string | undefined }[] = [];
    const outcome = await warmUp([recordingStrategy(seen)], {}, new TokenCounter(), sampleRequest(), 'endpoint');
    assert.equal(outcome.ok, true);
    assert.equal(seen.length, 1);
    assert.equal(seen[0]!.targetKind, 'endpoint');
    assert.equal(seen[0]!.request.messages.length, (sampleRequest().messages as unknown[]).length);
  });

  it('reports a body it cannot read instead of failing', async () => {
    const outcome = await warmUp([recordingStrategy([])], {}, new TokenCounter(), { messages: 'not a list' });
    assert.equal(outcome.ok, false);
    assert.match(outcome.ok ? '' : outcome.error, /messages/);
  });

  it('herald serve warms up before it listens, and the warm-up leaves nothing behind: no stash entry, record, decision or provider call', async () => {
    const harness = await startHarness({ kind: 'json', body: chatCompletion({ text: 'ok' }) });
    try {
      assert.deepEqual(filesUnder(path.join(harness.folder, 'stash')).filter((file) => !/[/\\]key$/.test(file)), []);
      assert.deepEqual(records(harness), []);
      assert.equal(fs.existsSync(harness.decisionsFile) ? fs.readFileSync(harness.decisionsFile, 'utf8') : '', '');
      assert.equal(harness.upstream.received.length, 0);
      assert.match(harness.output(), /warmed up in \d+ ms/);
      assert.doesNotMatch(harness.output(), /could not warm up/);
    } finally {
      await harness.stop();
    }
  });
});
