/**
 * The extension's warm-up: once, after a delay, while Herald is on, on the sample session, with
 * the optimizer's own strategies and settings, and writing nothing the user's requests could
 * later find (no stash entry, no memo decision), with a line in the log either way.
 */
import { strict as assert } from 'node:assert';
import { parseRequest } from '../../../src/core/chat';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { sampleRequest } from '../../../src/cli/sample';
import { Optimizer } from '../../../src/vscode/optimizer/optimizer';
import { warmUpSoon } from '../../../src/vscode/optimizer/warmUpSoon';
import { readSettings } from '../../../src/vscode/settings/settingsSchema';

const settle = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

function editorOptimizer(): { optimizer: Optimizer; store: MemoryBlobStore } {
  const store = new MemoryBlobStore();
  const optimizer = new Optimizer(createStrategies(), new Stash({ store, key: new Uint8Array(32) }), new RecordingLogger(), readSettings(() => undefined).settings);
  return { optimizer, store };
}

async function logged(logger: RecordingLogger, code: string, withinMs: number): Promise<boolean> {
  for (let waited = 0; waited < withinMs; waited += 20) {
    if (logger.lines.some((entry) => entry.code === code)) return true;
    await settle(20);
  }
  return false;
}

describe('vscode: the optimizer warmed up after activation', function () {
  this.timeout(60_000);

  it('runs the sample once after the delay, logs what it took, and leaves nothing a request could find', async () => {
    const { optimizer, store } = editorOptimizer();
    const logger = new RecordingLogger();
    let asked = 0;
    const spy = { warmUp: (body: Record<string, unknown>) => ((asked += 1), optimizer.warmUp(body)) };
    warmUpSoon(spy, logger, () => true, 10);
    assert.ok(await logged(logger, 'optimizer-warmed-up', 30_000), `logged: ${JSON.stringify(logger.lines)}`);
    assert.equal(asked, 1);
    assert.match(logger.lines.find((entry) => entry.code === 'optimizer-warmed-up')!.message, /in \d+ ms \(nothing written\)/);
    assert.deepEqual(await store.list(), [], 'the optimizer\'s stash holds nothing');
    // The same session as a user's first request: decided anew, nothing replayed from a memo.
    const result = await optimizer.run(parseRequest(sampleRequest()), 128_000, new AbortController().signal);
    assert.equal(result.replayedMessages, 0);
    assert.ok(result.tokensAfter < result.tokensBefore, 'and optimized as any request');
  });

  it('does nothing while Herald is off, or once cancelled before the delay', async () => {
    const logger = new RecordingLogger();
    let asked = 0;
    const spy = { warmUp: async () => ((asked += 1), { ok: true as const, ms: 1 }) };
    warmUpSoon(spy, logger, () => false, 5);
    warmUpSoon(spy, logger, () => true, 50).dispose();
    await settle(150);
    assert.equal(asked, 0);
    assert.deepEqual(logger.lines, []);
  });

  it('says so when the warm-up fails, and the extension goes on', async () => {
    const logger = new RecordingLogger();
    warmUpSoon({ warmUp: async () => ({ ok: false as const, error: 'grammar missing' }) }, logger, () => true, 5);
    assert.ok(await logged(logger, 'optimizer-warm-up-failed', 2_000));
    assert.match(logger.lines[0]!.message, /grammar missing.*first request loads what it needs/);
  });
});
