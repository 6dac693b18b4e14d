/**
 * Decided stays decided when the client rebuilds an earlier message (a resume: `claude -c`
 * rebuilds the conversation from its transcript) and across a restart (the memo saved and
 * loaded): a tool output decided once keeps its marker, byte for byte.
 */
import { strict as assert } from 'node:assert';
import type { ChatMessage, ChatRequest, Part } from '../../../src/core/chat/types';
import { MessageMemo } from '../../../src/core/pipeline/messageMemo';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';

/** Output the fresh-input digests shorten only a little on arrival (a fourth of it repeats), so as history it is masked whole. */
const OUTPUT = Array.from({ length: 300 }, (_, index) => (index % 4 === 0 ? '2026-01-01T10:00:00Z INFO worker-0 processed batch 1000 in 0 ms' : `line ${index} unique token_${index * 7919} value ${index * 31} path /srv/app/mod_${index}.py`)).join('\n');
const THINKING: Part = { type: 'opaque', kind: 'thinking', raw: { type: 'thinking', thinking: 'I should run it.', signature: 'sig' } };
const userText = (text: string): ChatMessage => ({ role: 'user', parts: [{ type: 'text', text }], contentShape: 'parts' });
const LATER: ChatMessage[] = [{ role: 'assistant', parts: [{ type: 'text', text: 'Next I will look at the config file instead.' }], contentShape: 'parts' }, userText('What next?')];

/** The session; `resumed` is the client's rebuilt history: the first reply lost its thinking block. */
function conversation(resumed: boolean, later: ChatMessage[] = []): ChatRequest {
  return {
    format: 'anthropic',
    tools: [{ name: 'Bash', description: 'Runs a command', inputSchema: { type: 'object' } }],
    options: {},
    messages: [
      userText('Why is the worker slow?'),
      { role: 'assistant', parts: [...(resumed ? [] : [THINKING]), { type: 'tool_call', id: 'toolu_1', name: 'Bash', arguments: { command: 'python probe.py' } }], contentShape: 'parts' },
      { role: 'user', parts: [{ type: 'tool_result', callId: 'toolu_1', content: [{ type: 'text', text: OUTPUT }], contentShape: 'parts' }], contentShape: 'parts' },
      ...later,
    ],
  };
}

function run(memo: MessageMemo, store: MemoryBlobStore, request: ChatRequest): Promise<string> {
  const pipeline = new Pipeline(createStrategies(), {}, { stash: new Stash({ store, key: new Uint8Array(32) }), memo, tokens: new TokenCounter() });
  return pipeline.run(request).then((result) => JSON.stringify(result.request.messages[2]!.parts));
}

describe('decided stays decided', () => {
  it('keeps a decided marker when the client rebuilds an earlier message on resume, and after a restart', async () => {
    const store = new MemoryBlobStore();
    const memo = new MessageMemo();
    await run(memo, store, conversation(false));
    const decided = await run(memo, store, conversation(false, LATER));
    assert.match(decided, /\[herald: observation masked: 300 lines · retrieve hr_/, 'decided in the session: masked');
    assert.equal(await run(memo, store, conversation(true, LATER)), decided, 'resumed: the same bytes');
    const restarted = MessageMemo.fromJSON(JSON.parse(JSON.stringify(memo)));
    assert.equal(await run(restarted, store, conversation(true, LATER)), decided, 'resumed after a restart: the same bytes');
    // What a cold start decides for the rebuilt history differs: only the memo keeps the decision.
    assert.notEqual(await run(new MessageMemo(), store, conversation(true, LATER)), decided);
  });
});
