/** A session whose first request went out as the client sent it keeps the client's tools block on every later request. */
import { strict as assert } from 'node:assert';
import type { ChatMessage, ChatRequest, ToolDefinition } from '../../../src/core/chat/types';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import type { Strategy } from '../../../src/core/pipeline/types';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { RETRIEVE_TOOL_NAME, runRequestFlow } from '../../../src/core/flow/requestFlow';
import { RawSessions } from '../../../src/core/flow/rawSessions';
import { FakeTarget } from './fakeTarget';

const TOOLS: ToolDefinition[] = [
  { name: 'Bash', description: 'Runs a shell command in the workspace and returns what it printed.', inputSchema: { type: 'object', properties: { command: { type: 'string' } } } },
  { name: 'Read', description: 'Reads a file.', inputSchema: { type: 'object', properties: { path: { type: 'string' } } } },
];

/** Stands in for any strategy that changes the tools block (a catalog, shortened descriptions): it shortens every description. */
const toolsStrategy: Strategy = {
  id: 'tools_shortened',
  defaultEnabled: true,
  kind: 'transform',
  apply: (request) => ({ request: { ...request, tools: request.tools.map((tool) => ({ ...tool, description: tool.description?.slice(0, 5) })) }, action: 'shortened', reason: 'test' }),
};

const text = (role: ChatMessage['role'], value: string): ChatMessage => ({ role, parts: [{ type: 'text', text: value }], contentShape: 'parts' });
const first: ChatRequest = { format: 'anthropic', messages: [text('user', 'Why is the worker slow?')], tools: TOOLS, options: {} };
const second: ChatRequest = { ...first, messages: [...first.messages, text('assistant', 'Looking.'), text('user', 'go on')] };

function setup(failFirst: boolean) {
  const stash = new Stash({ store: new MemoryBlobStore() });
  const tokens = new TokenCounter();
  const pipeline = new Pipeline([toolsStrategy], {}, { stash, tokens });
  const target = new FakeTarget([]);
  const rawSessions = new RawSessions();
  let calls = 0;
  const send = (request: ChatRequest) =>
    runRequestFlow({
      id: `r${calls}`, request, target, retrieveRounds: 4, logger: new RecordingLogger(), signal: new AbortController().signal, report: () => undefined, rawSessions,
      // The first optimize runs past its deadline when asked to: the request goes out as it came.
      optimize: (next, windowTokens, signal, targetKind) => (calls++ === 0 && failFirst ? Promise.reject(new Error('Herald: optimizing took longer than the 2500 ms deadline')) : pipeline.run(next, { windowTokens, signal, ...(targetKind ? { targetKind } : {}) })),
      retrieve: (handle) => stash.retrieve(handle),
      countTokens: (next) => tokens.countRequest(next),
    });
  return { target, send };
}

describe('a session whose first request went out as it came', () => {
  it('keeps the client\'s tools block, without Herald\'s own tools, on its later requests', async () => {
    const { target, send } = setup(true);
    const record = await send(first);
    assert.equal(record.status, 'forwarded-original');
    await send(second);
    assert.deepEqual(target.received[0]!.tools, TOOLS, 'the first request went out with the client\'s tools');
    assert.deepEqual(target.received[1]!.tools, target.received[0]!.tools, 'the second repeats them byte for byte: nothing for the provider to write again');
    // Another session that began optimized keeps Herald's tools block from its first request on.
    const other = setup(false);
    await other.send(first);
    await other.send(second);
    const names = (request: ChatRequest): string[] => request.tools.map((tool) => tool.name);
    assert.ok(names(other.target.received[0]!).includes(RETRIEVE_TOOL_NAME), 'herald_retrieve from the first request');
    assert.deepEqual(other.target.received[1]!.tools, other.target.received[0]!.tools);
    assert.notDeepEqual(other.target.received[1]!.tools, TOOLS, 'the strategy did change the tools there');
  });
});
