/**
 * The core's part of the privacy rules: decisions and log lines carry no prompt text, and
 * handles cannot be guessed without the per-install key. (Endpoint keys, SecretStorage and
 * the webview belong to the extension's own tests.)
 */
import { strict as assert } from 'node:assert';
import { parseRequest } from '../../../src/core/chat';
import { Pipeline } from '../../../src/core/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies, implementedStrategyIds } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens';
import { loadTrajectory, skipWithoutData, trajectoryNames, turnRequests } from '../../support/sharedData';

const CANARY = 'zqxcanary';

describe('hardening: no prompt text in decisions, unguessable handles', function () {
  this.timeout(60_000);

  it('decisions and log lines of every strategy carry no prompt text', async function () {
    skipWithoutData(this);
    const turns = turnRequests(loadTrajectory(trajectoryNames()[5]!));
    const body = turns[turns.length - 1]!;
    // A canary word in every message, inside the text the strategies read and quote from.
    const messages = body.messages.map((message) => {
      const typed = message as { role: string; content: string };
      return { ...typed, content: typed.content.split('\n').map((line, index) => (index % 7 === 0 ? `${line} ${CANARY}${index}` : line)).join('\n') };
    });
    const logger = new RecordingLogger();
    const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
    // Every strategy on, including those off by default.
    const enabled = Object.fromEntries(implementedStrategyIds().map((id) => [id, true]));
    const result = await new Pipeline(createStrategies(), { enabled }, { stash, tokens: new TokenCounter(20_000), logger }).run(parseRequest({ ...body, messages }), { windowTokens: 8_000 });
    assert.ok(result.decisions.some((decision) => decision.status === 'applied'), 'strategies acted on the request');
    assert.ok(!JSON.stringify(result.decisions).includes(CANARY), 'no prompt text in decisions');
    assert.ok(!JSON.stringify(logger.lines).includes(CANARY), 'no prompt text in log lines');
  });

  it('handles depend on the per-install key and give nothing of the original away', () => {
    const original = 'password=hunter2\n'.repeat(10);
    const first = new Stash({ store: new MemoryBlobStore() });
    const second = new Stash({ store: new MemoryBlobStore() });
    assert.notEqual(first.handleFor(original), second.handleFor(original), 'a random key per install');
    const fixed = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(1) });
    assert.equal(fixed.handleFor(original), new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32).fill(1) }).handleFor(original), 'stable under one key');
    assert.match(fixed.handleFor(original), /^hr_[a-z2-7]{16}$/);
    // Neighbouring originals give unrelated handles (an HMAC, not a checksum of the text).
    const handles = new Set(Array.from({ length: 2000 }, (_, index) => fixed.handleFor(`${original}${index}`)));
    assert.equal(handles.size, 2000);
  });
});
