/** The client's own references hold: a result a later pointer leads to stays readable, and a saved-output note keeps its path. */
import { strict as assert } from 'node:assert';
import type { ChatMessage, ChatRequest } from '../../../src/core/chat/types';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { createStrategies } from '../../../src/core/strategies';
import { clientPointers } from '../../../src/core/strategies/shared/clientReferences';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { runRequestFlow } from '../../../src/core/flow/requestFlow';
import { FakeTarget } from './fakeTarget';

/** A Python file as Claude Code's Read shows it: numbered lines, names nothing else in the conversation uses. */
const FILE = Array.from({ length: 80 }, (_, index) => `${String(index + 1).padStart(6)}→def handler_${index}(payload_${index}): return transform_${index}(payload_${index})`).join('\n');
const POINTER = 'Wasted call — file unchanged since your last Read. Refer to that earlier tool_result instead.';
const TABLE = Array.from({ length: 60 }, (_, index) => `row ${index} checksum_${index * 7919}`).join('\n');
const SAVED = `${TABLE}\n... [output truncated]\nFull output saved to: /tmp/claude/tool-results/b7f3.txt`;
/** Qwen Code's note: it comes first, then the head and tail of the output it kept. */
const QWEN_SAVED = `Tool output was too large and has been truncated.\nThe full output has been saved to: /tmp/.qwen/tmp/run_shell_command_6701.output\nTo read the complete output, use the read_file tool with the absolute file path above.\n\nTruncated part of the output:\n${TABLE}`;

const text = (role: ChatMessage['role'], value: string): ChatMessage => ({ role, parts: [{ type: 'text', text: value }], contentShape: 'parts' });
const call = (id: string, name: string, input: object): ChatMessage => ({ role: 'assistant', parts: [{ type: 'tool_call', id, name, arguments: input }], contentShape: 'parts' });
const result = (id: string, value: string): ChatMessage => ({ role: 'user', parts: [{ type: 'tool_result', callId: id, content: [{ type: 'text', text: value }], contentShape: 'parts' }], contentShape: 'parts' });

/** The conversation, request by request: read app.py, move on to other work, read app.py again (the client points back). */
const turns: ChatMessage[] = [
  text('user', 'Tidy the project.'),
  call('t1', 'Read', { file_path: '/w/app.py' }),
  result('t1', FILE),
  call('t2', 'Bash', { command: 'ls' }),
  result('t2', 'README.md\napp.py'),
  call('t3', 'Bash', { command: 'git status' }),
  result('t3', 'nothing to commit'),
  call('t4', 'Bash', { command: 'date' }),
  result('t4', 'Tue'),
  call('t5', 'Read', { file_path: '/w/app.py' }),
  result('t5', POINTER),
];
const TOOLS = [{ name: 'Read', description: 'Reads a file', inputSchema: { type: 'object' } }, { name: 'Bash', description: 'Runs a command', inputSchema: { type: 'object' } }];

function requestUpTo(end: number, messages: readonly ChatMessage[] = turns): ChatRequest {
  return { format: 'anthropic', messages: messages.slice(0, end), tools: TOOLS, options: {} };
}

function setup() {
  const stash = new Stash({ store: new MemoryBlobStore() });
  const tokens = new TokenCounter();
  const pipeline = new Pipeline(createStrategies(), {}, { stash, tokens });
  const target = new FakeTarget([]);
  const send = (request: ChatRequest) =>
    runRequestFlow({
      id: 'r', request, target, retrieveRounds: 4, logger: new RecordingLogger(), signal: new AbortController().signal, report: () => undefined,
      optimize: (next, windowTokens, signal, targetKind) => pipeline.run(next, { windowTokens, signal, ...(targetKind ? { targetKind } : {}) }),
      retrieve: (handle) => stash.retrieve(handle),
      countTokens: (next) => tokens.countRequest(next),
    });
  return { pipeline, target, send };
}

const resultText = (request: ChatRequest, index: number): string => JSON.stringify(request.messages[index]!.parts);

describe('the client\'s own references hold', () => {
  it('pairs a pointer with the latest earlier read of the same file', () => {
    const pairs = clientPointers(requestUpTo(turns.length));
    assert.deepEqual(pairs.map(({ pointer, target }) => [pointer.messageIndex, target.messageIndex]), [[10, 2]]);
    const qwen = [text('user', 'Fix app.py'), call('q1', 'read_file', { absolute_path: '/w/app.py' }), result('q1', FILE), call('q2', 'read_file', { absolute_path: '/w/other.py' }), result('q2', 'x = 1'), call('q3', 'read_file', { absolute_path: '/w/app.py' }), result('q3', '[File app.py unchanged since last read in this session — the full content was provided earlier in this conversation.]')];
    assert.deepEqual(clientPointers(requestUpTo(qwen.length, qwen)).map(({ pointer, target }) => [pointer.messageIndex, target.messageIndex]), [[6, 2]]);
  });

  it('keeps a result a pointer leads to verbatim when both are in the history being decided', async () => {
    const { pipeline } = setup();
    const out = await pipeline.run({ ...requestUpTo(turns.length), messages: [...turns, text('assistant', 'Done.'), text('user', 'Thanks')] });
    assert.ok(resultText(out.request, 2).includes('handler_79'), 'the earlier Read stays readable');
    const masked = await setup().pipeline.run({ ...requestUpTo(9), messages: [...turns.slice(0, 9), text('assistant', 'Done.'), text('user', 'Thanks')] });
    assert.ok(!resultText(masked.request, 2).includes('handler_79'), 'without the pointer the same result is masked (the guard is what keeps it)');
  });

  it('answers a pointer to a result Herald elided before the pointer existed with that result\'s original, the same bytes every time', async () => {
    const { target, send } = setup();
    for (const end of [3, 5, 7, 9, 11]) await send(requestUpTo(end));
    const beforePointer = target.received[3]!;
    assert.ok(!resultText(beforePointer, 2).includes('handler_79'), 'the first read was elided once the conversation moved past it');
    const withPointer = target.received[4]!;
    assert.ok(resultText(withPointer, 10).includes(POINTER.slice(0, 20)), 'the client\'s pointer stays');
    assert.ok(resultText(withPointer, 10).includes('handler_79'), 'and the elided result follows it');
    assert.equal(JSON.stringify(withPointer.messages.slice(0, 9)), JSON.stringify(target.received[3]!.messages.slice(0, 9)), 'history before it unchanged');
    await send({ ...requestUpTo(11), messages: [...turns, text('assistant', 'Same file.'), text('user', 'ok')] });
    assert.equal(resultText(target.received[5]!, 10), resultText(withPointer, 10), 'the next request repeats those bytes');
  });

  for (const [client, saved, note] of [
    ['Claude Code', SAVED, 'Full output saved to: /tmp/claude/tool-results/b7f3.txt'],
    ['Qwen Code', QWEN_SAVED, 'The full output has been saved to: /tmp/.qwen/tmp/run_shell_command_6701.output'],
  ] as const) {
    it(`keeps a saved-output note (and its path) readable once the conversation moved past it (${client}'s wording)`, async () => {
      const messages = [text('user', 'Check the table.'), call('s1', 'Bash', { command: 'python dump.py' }), result('s1', saved), call('s2', 'Bash', { command: 'date' }), result('s2', 'Tue'), text('assistant', 'Looked fine.'), text('user', 'Now the README.')];
      const { target, send } = setup();
      for (const end of [3, 5, 7]) await send(requestUpTo(end, messages));
      assert.ok(resultText(target.received[2]!, 2).includes(note));
      const plain = [...messages.slice(0, 2), result('s1', TABLE), ...messages.slice(3)];
      const other = setup();
      for (const end of [3, 5, 7]) await other.send(requestUpTo(end, plain));
      assert.ok(!resultText(other.target.received[2]!, 2).includes('checksum_7919'), 'the same output without the note is masked (the guard is what keeps it)');
    });
  }
});
