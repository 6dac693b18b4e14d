import { strict as assert } from 'node:assert';
import { findToolOutputs, parseRequest, partText, replaceSegments, serializeRequest, type ChatRequest } from '../../../src/core/chat';
import { expandRequest, MessageMemo, Pipeline, sitesFrom, type Strategy } from '../../../src/core/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore, Stash, type BlobStore } from '../../../src/core/stash';
import { TokenCounter } from '../../../src/core/tokens';
import { elideLongOutputs } from './fakes';

const tokens = new TokenCounter();

function newStash(store: BlobStore = new MemoryBlobStore()): Stash {
  return new Stash({ store, key: new Uint8Array(32).fill(11) });
}

/** Elides, whole, every history tool output that holds a marker this stash issued: an elision of an elision. */
const wrapElided: Strategy = {
  id: 'wrap_elided',
  defaultEnabled: true,
  apply(request, context) {
    const replacements = new Map<string, string>();
    for (const segment of findToolOutputs(request)) {
      if (segment.messageIndex < context.frozenCount || segment.messageIndex >= context.freshStart) continue;
      if (!context.stash.hasIssuedMarker(segment.text)) continue;
      replacements.set(segment.key, context.stash.elide({ original: segment.text, summary: 'output holding an elision', kind: 'wrap_elided' }).replacement);
    }
    return { request: replaceSegments(request, replacements), action: replacements.size > 0 ? 'tool-output-elided' : 'nothing-to-do', reason: 'test' };
  },
};

const LOG = Array.from({ length: 40 }, (_, index) => `line ${index}: INFO all good`).join('\n');

function call(id: string, command: string): unknown {
  return { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }] };
}

/** A conversation whose third tool output prints (quotes) the replacement the first one got. */
function conversation(quoted: string, extraTurns = 0): ChatRequest {
  const messages: unknown[] = [
    { role: 'system', content: 'You are an agent.' },
    { role: 'user', content: 'Look at the log.' },
    call('c1', 'cat app.log'),
    { role: 'tool', tool_call_id: 'c1', content: LOG },
    call('c2', 'cat notes.txt'),
    { role: 'tool', tool_call_id: 'c2', content: `notes:\n${quoted}\nend of notes` },
  ];
  for (let turn = 0; turn < extraTurns; turn++) messages.push(call(`d${turn}`, `echo ${turn}`), { role: 'tool', tool_call_id: `d${turn}`, content: `${turn}` });
  messages.push({ role: 'assistant', content: 'Done looking.' }, { role: 'user', content: 'Thanks, go on.' });
  return parseRequest({ model: 'gpt-4o', messages });
}

function texts(request: ChatRequest): string[][] {
  return request.messages.map((message) => message.parts.map(partText));
}

/** The replacement the first log gets from `elideLongOutputs` under this stash's key. */
function replacementOfLog(): string {
  return newStash().elide({ original: LOG, summary: '40 lines elided', kind: 'elide_long_outputs' }).replacement;
}

describe('pipeline elision sites', () => {
  it('records nested sites when a later strategy elides an earlier replacement, and expands exactly with them', async () => {
    const stash = newStash();
    const request = conversation(replacementOfLog());
    const result = await new Pipeline([elideLongOutputs(5), wrapElided], {}, { stash, tokens }).run(request);
    // Message 3 (the log) was elided, then wrapped; message 5 quotes the log's replacement and was wrapped too.
    const byMessage = new Map(result.elisions.map((site) => [site.messageIndex, site]));
    assert.deepEqual([...byMessage.keys()], [3, 5]);
    assert.equal(byMessage.get(3)!.nested?.length, 1, 'the wrapped log holds one real elision');
    assert.equal(byMessage.get(5)!.nested, undefined, 'the quote inside the notes is no elision');
    const exact = await expandRequest(result.request, stash, sitesFrom(result.elisions));
    assert.deepEqual(texts(exact), texts(request));
    const byText = await expandRequest(result.request, stash);
    assert.notDeepEqual(texts(byText), texts(request), 'by text alone the quoted replacement inside the notes is expanded too');
  });

  it('replays the sites of history messages from the memo, saved and loaded, without changing a byte', async () => {
    const stash = newStash();
    const first = conversation(replacementOfLog());
    const memo = new MessageMemo();
    const firstResult = await new Pipeline([elideLongOutputs(5), wrapElided], {}, { stash, tokens, memo }).run(first);
    // The next process loads the memo from disk.
    const loaded = MessageMemo.fromJSON(JSON.parse(JSON.stringify(memo)));
    const second = conversation(replacementOfLog(), 1);
    const secondResult = await new Pipeline([elideLongOutputs(5), wrapElided], {}, { stash, tokens, memo: loaded }).run(second);
    assert.ok(secondResult.replayedMessages >= 6, `replayed ${secondResult.replayedMessages}`);
    const firstWire = serializeRequest(firstResult.request) as { messages: unknown[] };
    const secondWire = serializeRequest(secondResult.request) as { messages: unknown[] };
    assert.deepEqual(secondWire.messages.slice(0, 6), firstWire.messages.slice(0, 6), 'the prefix is repeated byte for byte');
    assert.deepEqual(secondResult.elisions.filter((site) => site.messageIndex < 6), firstResult.elisions.filter((site) => site.messageIndex < 6));
    assert.deepEqual(texts(await expandRequest(secondResult.request, stash, sitesFrom(secondResult.elisions))), texts(second));
  });

  it('refuses a memo saved before it carried sites (schema 2) or before it left cache hints out (schema 3)', () => {
    assert.throws(() => MessageMemo.fromJSON({ schema: 2, entries: [] }), /schema 2, expected 4/);
    assert.throws(() => MessageMemo.fromJSON({ schema: 3, entries: [] }), /schema 3, expected 4/);
  });

  it('falls back to sites guessed from the text, with a warning, for a rewrite that is not made of elisions', async () => {
    const stash = newStash();
    const logger = new RecordingLogger();
    const request = conversation('plain notes');
    // Elides the log and also drops a character of it: no alignment explains that.
    const lossy: Strategy = {
      id: 'lossy', defaultEnabled: true,
      apply(input, context) {
        const segment = findToolOutputs(input).find((candidate) => candidate.messageIndex === 3)!;
        const elision = context.stash.elide({ original: segment.text, summary: 'log elided', kind: 'lossy' });
        return { request: replaceSegments(input, new Map([[segment.key, `${elision.replacement}!`]])), action: 'x', reason: 'x' };
      },
    };
    const result = await new Pipeline([lossy], {}, { stash, tokens, logger }).run(request);
    assert.deepEqual(logger.lines.map((line) => line.code), ['elision-sites-guessed']);
    assert.deepEqual(result.elisions.map((site) => [site.messageIndex, site.start]), [[3, 0]]);
  });

  it('takes the markers of a part that had no text (an image turned into its text) as real, without a warning', async () => {
    const stash = newStash();
    const logger = new RecordingLogger();
    const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
    const request = parseRequest({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ type: 'text', text: 'What does it say?' }, image] }, { role: 'assistant', content: 'It says hello.' }, { role: 'user', content: 'Thanks.' }] });
    // What vision_ocr does: the image part becomes a text part holding its marker and the text read from it.
    const toText: Strategy = {
      id: 'to_text', defaultEnabled: true,
      apply(input, context) {
        const elision = context.stash.elide({ original: JSON.stringify(image), summary: 'image read as text', kind: 'to_text' });
        const messages = input.messages.map((message, index) => (index !== 0 ? message : { ...message, parts: [message.parts[0]!, { type: 'text' as const, text: `${elision.replacement}\nhello` }] }));
        return { request: { ...input, messages }, action: 'x', reason: 'x' };
      },
    };
    const result = await new Pipeline([toText], {}, { stash, tokens, logger }).run(request);
    assert.deepEqual(logger.lines.map((line) => line.code), []);
    assert.deepEqual(result.elisions.map((site) => [site.messageIndex, site.partIndex, site.start]), [[0, 1, 0]]);
  });

  it('has no sites when the request goes out as it arrived because an original could not be saved', async () => {
    const failing: BlobStore = { get: async () => undefined, put: async () => { throw new Error('disk full'); }, delete: async () => undefined, list: async () => [], touch: async () => undefined };
    const request = conversation('plain notes');
    const result = await new Pipeline([elideLongOutputs(5)], {}, { stash: newStash(failing), tokens }).run(request);
    assert.ok(result.restored);
    assert.deepEqual(result.elisions, []);
  });
});
