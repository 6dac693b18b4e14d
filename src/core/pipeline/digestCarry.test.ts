import { strict as assert } from 'node:assert';
import { createHash } from 'node:crypto';
import { DigestCarry, sameJson } from './digestCarry';
import { digestOf, knownDigestOf } from './hash';
import { parseRequest } from '../chat';
import { pipelineOf } from '../../../test/support/agentFixtures';
import { createContextDedupe } from '../strategies/contextDedupe';
import { stripCacheHints } from '../chat/cacheHints';
import { itWithData } from '../../../test/support/sharedData';
import { claudeCodeSpotterMainFiles, loadClaudeCodeSession } from '../../../test/support/clients';

const ownDigest = (value: object): string => createHash('sha256').update(JSON.stringify(value), 'utf8').digest('hex');

function turn(texts: readonly string[]): object[] {
  return texts.map((text, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', parts: [{ type: 'text', text }] }));
}

describe('digest carry', () => {
  it('gives a re-sent message the digest of its equal at the same index, which is its own JSON\'s digest', () => {
    const carry = new DigestCarry();
    const first = turn(['read the config', 'done', 'now fix the test']);
    first.forEach((message) => digestOf(message));
    carry.remember('s', first);
    const second = turn(['read the config', 'done', 'now fix the test', 'fixed']);
    assert.equal(carry.carry('s', second), 3);
    for (const message of second.slice(0, 3)) assert.equal(knownDigestOf(message), ownDigest(message));
    assert.equal(knownDigestOf(second[3]!), undefined, 'a new message is hashed as usual');
  });

  it('carries nothing to a message that changed, or to another session', () => {
    const carry = new DigestCarry();
    const first = turn(['read the config', 'done']);
    first.forEach((message) => digestOf(message));
    carry.remember('s', first);
    const edited = turn(['read the config!', 'done']);
    assert.equal(carry.carry('s', edited), 1);
    assert.equal(knownDigestOf(edited[0]!), undefined);
    assert.equal(carry.carry('other', turn(['read the config', 'done'])), 0);
  });

  itWithData('carries a real Claude Code session\'s history from each request to the next, every digest its message\'s own', () => {
    const session = loadClaudeCodeSession(claudeCodeSpotterMainFiles()[0]!);
    const requests = session.requests.filter((entry) => !entry.summarization).slice(20, 40).map((entry) => structuredClone(entry.request));
    const carry = new DigestCarry();
    let carried = 0;
    let history = 0;
    for (const [index, request] of requests.entries()) {
      const bare = request.messages.map((message) => stripCacheHints(message).bare);
      if (index > 0) {
        carried += carry.carry('claude', bare);
        history += Math.min(bare.length, requests[index - 1]!.messages.length);
      }
      for (const message of bare) assert.equal(knownDigestOf(message) ?? digestOf(message), ownDigest(message));
      carry.remember('claude', bare);
    }
    assert.ok(history > 1_000, `only ${history} history messages`);
    assert.ok(carried >= history * 0.95, `${carried} of ${history} history messages carried`);
  });

  it('keeps the latest sessions within their count and their size', () => {
    const bySessions = new DigestCarry(2);
    for (const session of ['a', 'b', 'c']) {
      const messages = turn([`hello from ${session}`]);
      messages.forEach((message) => digestOf(message));
      bySessions.remember(session, messages);
    }
    assert.deepEqual(['a', 'b', 'c'].map((session) => bySessions.carry(session, turn([`hello from ${session}`]))), [0, 1, 1], 'the least recently seen session goes');
    const bySize = new DigestCarry(16, 150);
    for (const session of ['a', 'b']) {
      const messages = turn(['y'.repeat(60)]);
      messages.forEach((message) => digestOf(message));
      bySize.remember(session, messages);
    }
    assert.deepEqual(['a', 'b'].map((session) => bySize.carry(session, turn(['y'.repeat(60)]))), [0, 1], 'two would hold more than the limit');
  });

  it('keeps no request bigger than its limit for the next turn', () => {
    const carry = new DigestCarry(32, 100);
    const small = turn(['x']);
    small.forEach((message) => digestOf(message));
    carry.remember('s', small);
    const big = turn(['x'.repeat(200)]);
    big.forEach((message) => digestOf(message));
    carry.remember('s', big);
    assert.equal(carry.carry('s', turn(['x'])), 0, 'the smaller request before it is forgotten too');
    assert.equal(carry.carry('s', turn(['x'.repeat(200)])), 0);
  });

  it('vouches for the same JSON only: key order, lengths, class instances, functions and toJSON say no', () => {
    assert.equal(sameJson({ a: 1, b: [1, 'x', null, { c: true }] }, { a: 1, b: [1, 'x', null, { c: true }] }, 0), true);
    assert.equal(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }, 0), false, 'key order changes the JSON');
    assert.equal(sameJson([1, 2], [1, 2, 3], 0), false);
    assert.equal(sameJson({ a: 1 }, { a: 1, b: undefined }, 0), false);
    assert.equal(sameJson({ a: '1' }, { a: 1 }, 0), false);
    assert.equal(sameJson(new Date(0), new Date(0), 0), false, 'an instance is hashed, not compared');
    const write = (): string => 'x';
    assert.equal(sameJson({ f: write }, { f: write }, 0), false);
    assert.equal(sameJson({ toJSON: 1 }, { toJSON: 1 }, 0), false);
    let deep: unknown = 1;
    let other: unknown = 1;
    for (let level = 0; level < 100; level++) {
      deep = [deep];
      other = [other];
    }
    assert.equal(sameJson(deep, other, 0), false, 'past its depth it does not compare');
  });

  it('lets a pipeline\'s next turn reuse the history\'s digests, and a changed history message gets its own', async () => {
    const { pipeline } = pipelineOf([createContextDedupe()]);
    const body = (last: string, extra: string[] = []) => ({ model: 'gpt-4o', messages: [{ role: 'user', content: 'the build is red' }, { role: 'assistant', content: last }, ...extra.map((content, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content }))] });
    await pipeline.run(parseRequest(body('I will look at the log', ['what does it say'])));
    const next = parseRequest(body('I will look at the log', ['what does it say', 'an import error', 'fix it']));
    await pipeline.run(next);
    for (const message of next.messages) assert.equal(knownDigestOf(message), ownDigest(message));
    const rewritten = parseRequest(body('I looked at the log', ['what does it say', 'an import error', 'fix it']));
    await pipeline.run(rewritten);
    for (const message of rewritten.messages) assert.equal(knownDigestOf(message), ownDigest(message));
  });
});
