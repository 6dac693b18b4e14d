import { strict as assert } from 'node:assert';
import { parseRequest, serializeRequest } from '../../../src/core/chat';
import type { ChatMessage, ChatRequest, Part } from '../../../src/core/chat/types';
import type { ResponseChunk } from '../../../src/core/flow/forwardTarget';
import { CATALOG_TOOL_NAME } from '../../../src/core/flow/loadToolsTool';
import { runRequestFlow } from '../../../src/core/flow/requestFlow';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { RecordingLogger } from '../../../src/core/ports';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { createCacheOptimizer } from '../../../src/core/strategies/cacheOptimizer';
import { createToolCatalog, recordLoadedTools, TOOL_CATALOG_ID } from '../../../src/core/strategies/toolCatalog';
import { createToolSchemaCompression } from '../../../src/core/strategies/toolSchemaCompression';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { loadCopilotExport } from '../../support/clients';
import { skipWithoutData } from '../../support/sharedData';
import { FakeTarget, type Script } from './fakeTarget';

/** The first request of Copilot's real export, as Herald's VS Code provider receives it (69 tools). */
function copilotOpening(): ChatRequest {
  return loadCopilotExport().requests[0]!.request;
}

/** Herald's tool strategies behind the flow, wired the way a host wires them (loads recorded in the session's pin). */
function setup(scripts: Script[], request: ChatRequest, overrides: { billing?: 'tokens' | 'premium-requests'; retrieveRounds?: number } = {}) {
  const stash = new Stash({ store: new MemoryBlobStore() });
  const tokens = new TokenCounter();
  const pipeline = new Pipeline([createToolCatalog(), createToolSchemaCompression(), createCacheOptimizer()], {}, { stash, tokens });
  // An endpoint: billed by the token, so the catalog is offered.
  const target = new FakeTarget(scripts, { maxInputTokens: 128_000, billing: overrides.billing ?? 'tokens' });
  const reported: ResponseChunk[] = [];
  const run = (caller: ChatRequest) =>
    runRequestFlow({
      id: 'r1',
      request: caller,
      target,
      optimize: (input, windowTokens, signal, targetKind) => pipeline.run(input, { windowTokens, signal, sessionId: 'session', ...(targetKind ? { targetKind } : {}) }),
      retrieve: (handle) => stash.retrieve(handle),
      report: (chunk) => reported.push(chunk),
      signal: new AbortController().signal,
      retrieveRounds: overrides.retrieveRounds ?? 4,
      logger: new RecordingLogger(),
      countTokens: (input) => tokens.countRequest(input),
      loadTools: (sessionId, names) => void recordLoadedTools(pipeline.state.scope(sessionId, TOOL_CATALOG_ID), names),
    });
  return { pipeline, target, reported, run, request };
}

const names = (request: ChatRequest): string[] => request.tools.map((tool) => tool.name);
const listing = (request: ChatRequest): string => request.tools.find((tool) => tool.name === CATALOG_TOOL_NAME)?.description ?? '';

/** The caller's next request: what it saw of the answer as the assistant's message, then its tool's result. */
function callerContinues(request: ChatRequest, seen: readonly ResponseChunk[], result: string): ChatRequest {
  const parts: Part[] = [];
  for (const chunk of seen) {
    if (chunk.type === 'text') parts.push({ type: 'text', text: chunk.text });
    if (chunk.type === 'tool_call') parts.push({ type: 'tool_call', id: chunk.id, name: chunk.name, arguments: chunk.input });
  }
  const call = seen.find((chunk) => chunk.type === 'tool_call') as Extract<ResponseChunk, { type: 'tool_call' }>;
  const messages: ChatMessage[] = [
    ...request.messages,
    { role: 'assistant', parts, contentShape: 'parts' },
    { role: 'user', parts: [{ type: 'tool_result', callId: call.id, content: [{ type: 'text', text: result }], contentShape: 'parts' }], contentShape: 'parts' },
  ];
  return { ...request, messages };
}

describe('request flow: the tool catalog', () => {
  it('answers herald_load_tools inside the turn with the full schemas added; the caller never sees the call, and the next request repeats that tools block', async function () {
    skipWithoutData(this);
    const { target, reported, run, request } = setup([
      (sent) => {
        assert.ok(!names(sent).includes('get_changed_files') && listing(sent).includes('\n- get_changed_files('), 'get_changed_files starts in the catalog');
        return [{ type: 'text', text: 'Let me look around. ' }, { type: 'tool_call', id: 'h1', name: CATALOG_TOOL_NAME, input: { names: ['get_changed_files'] } }];
      },
      [{ type: 'tool_call', id: 'c1', name: 'get_changed_files', input: { path: 'c:\\src\\test\\ws2' } }],
      [{ type: 'text', text: 'There are 30 files.' }],
    ], copilotOpening());
    const record = await run(request);
    assert.equal(target.received.length, 2, 'one extra round, inside the turn');
    const second = target.received[1]!;
    assert.ok(names(second).includes('get_changed_files'), 'the second round offers get_changed_files in full');
    assert.ok(!listing(second).includes('- get_changed_files('), 'and no longer lists it in the catalog');
    const [assistant, answer] = second.messages.slice(-2);
    assert.deepEqual(assistant!.parts.map((part) => part.type), ['text', 'tool_call']);
    assert.match(answer!.parts.map((part) => (part.type === 'tool_result' ? part.content.map((inner) => (inner.type === 'text' ? inner.text : '')).join('') : '')).join(''), /Loaded get_changed_files/);
    assert.deepEqual(reported, [{ type: 'text', text: 'Let me look around. ' }, { type: 'tool_call', id: 'c1', name: 'get_changed_files', input: { path: 'c:\\src\\test\\ws2' } }]);
    assert.deepEqual(record.ownToolCalls, { [CATALOG_TOOL_NAME]: 1 });
    // The caller ran get_changed_files and sends its next request: the tools block is the load round's, byte for byte.
    await run(callerContinues(request, reported, 'a.txt\nb.txt'));
    assert.equal(JSON.stringify(target.received[2]!.tools), JSON.stringify(second.tools));
  });

  it('loads a Responses namespace tool by one of its functions\' names, and sends it back as the client wrote it', async () => {
    const fn = (name: string) => ({ type: 'function', name, description: `${name} acts on a helper. ${'It reports progress back to the caller as it goes. '.repeat(30)}`, parameters: { type: 'object', properties: { target: { type: 'string' } }, required: ['target'] } });
    const namespace = { type: 'namespace', name: 'crew_v1', description: 'Tools for spawning and managing helpers.', tools: [fn('spawn_helper'), fn('wait_helper'), fn('close_helper'), fn('resume_helper')] };
    const opening = parseRequest({ model: 'gpt-5.1-codex', input: [{ type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Sum the order totals.' }] }], tools: [{ type: 'function', name: 'exec_command', description: 'Runs a command.', parameters: { type: 'object', properties: { cmd: { type: 'string' } } } }, namespace] }, 'responses');
    const { target, run, request } = setup([
      (sent) => {
        assert.ok(!names(sent).includes('crew_v1') && listing(sent).includes('\n- crew_v1[spawn_helper, wait_helper, close_helper, resume_helper]'), 'the namespace starts in the catalog');
        return [{ type: 'tool_call', id: 'h1', name: CATALOG_TOOL_NAME, input: { names: ['spawn_helper'] } }];
      },
      [{ type: 'text', text: 'done' }],
    ], opening);
    await run(request);
    assert.equal(target.received.length, 2);
    const second = target.received[1]!;
    assert.deepEqual((serializeRequest(second) as { tools: unknown[] }).tools.find((tool) => (tool as { name?: string }).name === 'crew_v1'), namespace);
    assert.match(JSON.stringify(second.messages.at(-1)), /Loaded crew_v1/);
  });

  it('forwards a catalogued tool the model calls directly to the caller, and offers it in full from then on', async function () {
    skipWithoutData(this);
    const call: ResponseChunk = { type: 'tool_call', id: 'c1', name: 'fetch_webpage', input: { urls: ['https://example.com'], query: 'docs' } };
    const { target, reported, run, request } = setup([[call], [{ type: 'text', text: 'ok' }]], copilotOpening());
    await run(request);
    assert.ok(!names(target.received[0]!).includes('fetch_webpage'));
    assert.equal(target.received.length, 1, 'no extra round');
    assert.deepEqual(reported, [call]);
    await run(callerContinues(request, reported, '<html>…</html>'));
    assert.ok(names(target.received[1]!).includes('fetch_webpage'));
  });

  it('tells the model which names it cannot load, and hands over the caller\'s calls made in the same round', async function () {
    skipWithoutData(this);
    const unknown = setup([[{ type: 'tool_call', id: 'h1', name: CATALOG_TOOL_NAME, input: { names: ['get_changed_filez'] } }], [{ type: 'text', text: 'ok' }]], copilotOpening());
    await unknown.run(unknown.request);
    const answer = unknown.target.received[1]!.messages.at(-1)!.parts[0]!;
    assert.ok(answer.type === 'tool_result' && answer.isError === true);
    assert.match(JSON.stringify(answer), /no tool is named get_changed_filez/);
    assert.deepEqual(unknown.reported, [{ type: 'text', text: 'ok' }]);

    const mixed = setup([[{ type: 'tool_call', id: 'h1', name: CATALOG_TOOL_NAME, input: { names: ['get_changed_files'] } }, { type: 'tool_call', id: 'c1', name: 'read_file', input: { filePath: 'a' } }]], copilotOpening());
    await mixed.run(mixed.request);
    assert.equal(mixed.target.received.length, 1);
    assert.deepEqual(mixed.reported.map((chunk) => (chunk.type === 'tool_call' ? chunk.name : chunk.type)), ['read_file']);
  });

  it('tells the pipeline the target kind from how the target bills, and offers no catalog when its calls could not be answered', async function () {
    skipWithoutData(this);
    const endpoint = setup([[{ type: 'text', text: 'ok' }]], copilotOpening());
    await endpoint.run(endpoint.request);
    assert.ok(names(endpoint.target.received[0]!).includes(CATALOG_TOOL_NAME), 'billed by the token: the catalog is offered');
    // A Copilot-hosted model's 128k window holds these 69 tools (about 12,000 tokens) easily: each load would be a premium request.
    const copilot = setup([[{ type: 'text', text: 'ok' }]], copilotOpening(), { billing: 'premium-requests' });
    await copilot.run(copilot.request);
    assert.equal(copilot.target.received[0]!.tools.length, 70, 'the 69 tools whole, and herald_retrieve offered from the first request');
    assert.ok(names(copilot.target.received[0]!).includes('herald_retrieve'));
    const noRounds = setup([[{ type: 'text', text: 'ok' }]], copilotOpening(), { retrieveRounds: 0 });
    await noRounds.run(noRounds.request);
    assert.ok(!names(noRounds.target.received[0]!).includes(CATALOG_TOOL_NAME), 'no own-tool rounds: nobody would answer a load');
  });
});
