import { strict as assert } from 'node:assert';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { parseRequest } from '../../../src/core/chat';
import { digestOf } from '../../../src/core/pipeline/hash';
import { TokenCounter } from '../../../src/core/tokens';

describe('TokenCounter', () => {
  it('counts with the o200k BPE (an independent encode agrees)', () => {
    const counter = new TokenCounter();
    const text = 'function checkout(cart: Cart): Receipt { return computeTotal(cart); }';
    assert.equal(counter.count(text), encode(text).length);
    assert.equal(counter.count(''), 0);
    // A word the vocabulary has whole is one token; a long random string is many.
    assert.equal(counter.count('hello'), 1);
    assert.ok(counter.count('qzxv9k2lq0pw8zmx') > 4);
  });

  it('counts special-token look-alikes in user text instead of failing', () => {
    const counter = new TokenCounter();
    assert.ok(counter.count('before <|endoftext|> after') > 3);
  });

  it("counts huge texts from evenly spaced windows, close to the exact count and quickly", () => {
    const counter = new TokenCounter();
    const lines = Array.from({ length: 3_000 }, (_, index) => `2026-11-02T14:${String(index % 60).padStart(2, '0')} INFO worker-${index % 7} served /api/item/${index} in ${index % 97}ms`);
    const text = lines.join('\n');
    assert.ok(text.length > 128 * 1024);
    const exact = encode(text).length;
    const sampled = counter.count(text);
    assert.ok(Math.abs(sampled - exact) / exact < 0.05, `${sampled} vs ${exact}`);
    // An unbroken run is counted in pieces: linear, not quadratic, and close to exact.
    const run = 'x'.repeat(3_000);
    assert.ok(Math.abs(counter.count(run) - encode(run).length) / encode(run).length < 0.05);
  });

  it('counts requests including tools, and scales families without a public tokenizer', () => {
    const counter = new TokenCounter();
    const request = parseRequest({ model: 'claude-sonnet-4-5', system: 'Be brief.', messages: [{ role: 'user', content: 'Hello there' }], tools: [{ name: 'bash', description: 'Run a command', input_schema: { type: 'object' } }] });
    const plain = counter.countRequest(request);
    const forModel = counter.countForModel(request);
    assert.equal(forModel.estimated, true);
    assert.equal(forModel.tokens, Math.round(plain * 1.2));
    assert.equal(counter.countForModel(request, 'gpt-4o').estimated, false);
  });

  it('counts a re-sent message by its digest, and each different message by its own text', () => {
    const counter = new TokenCounter();
    const body = { messages: [{ role: 'user', content: 'one two three four' }, { role: 'assistant', content: 'five six' }] };
    const first = parseRequest(body).messages;
    for (const message of first) digestOf(message);
    const counts = first.map((message) => counter.countMessage(message));
    // The next turn re-sends the same messages as new objects, and one changed message.
    const again = parseRequest({ messages: [...body.messages, { role: 'user', content: 'seven' }] }).messages;
    const changed = parseRequest({ messages: [{ role: 'user', content: 'one two three four five six seven eight nine ten' }] }).messages[0]!;
    for (const message of [...again, changed]) digestOf(message);
    assert.deepEqual(again.slice(0, 2).map((message) => counter.countMessage(message)), counts);
    const fresh = new TokenCounter();
    assert.equal(counter.countMessage(again[2]!), fresh.countMessage(again[2]!));
    assert.equal(counter.countMessage(changed), fresh.countMessage(changed));
    assert.notEqual(counter.countMessage(changed), counts[0]);
  });

  it('counts an array filled after it was counted again', () => {
    const counter = new TokenCounter();
    const request = parseRequest({ messages: [{ role: 'user', content: 'short' }, { role: 'assistant', content: 'also short' }] });
    const messages = [...request.messages];
    const copy = { ...request, messages };
    const before = counter.countRequest(copy);
    assert.equal(counter.countRequest(copy), before);
    messages[1] = parseRequest({ messages: [{ role: 'assistant', content: 'a much longer answer than the one it replaced, with many more words' }] }).messages[0]!;
    assert.equal(counter.countRequest(copy), new TokenCounter().countRequest(copy));
    assert.ok(counter.countRequest(copy) > before);
  });

  it('counts the same with a memo of 4 texts, turned over many times, as the tokenizer does', () => {
    const small = new TokenCounter(4);
    const texts = Array.from({ length: 60 }, (_, index) => `text ${index % 13}: ${'word '.repeat(index % 7)}end`);
    for (let round = 0; round < 3; round++) {
      for (const text of texts) assert.equal(small.count(text), encode(text).length, text);
    }
    const messages = parseRequest({ messages: texts.map((content, index) => ({ role: index % 2 === 0 ? 'user' : 'assistant', content })) }).messages;
    for (const message of messages) digestOf(message);
    const large = new TokenCounter();
    assert.deepEqual(messages.map((message) => small.countMessage(message)), messages.map((message) => large.countMessage(message)));
  });
});
