import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { detectFormat, fromResponses, parseRequest, partText, serializeRequest, toResponses, FormatError } from '../../../src/core/chat';
import { Pipeline } from '../../../src/core/pipeline';
import { MemoryBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { TokenCounter } from '../../../src/core/tokens';
import { expandsBack, replay } from '../../support/replay';
import { codexRequests } from '../../support/codexSessions';
import { loadTrajectory, skipWithoutData, turnRequests } from '../../support/sharedData';
import { hostileText } from '../hardening/generators';
import { partShape } from '../hardening/requestShape';

/** A Codex-like request: instructions, a developer message, reasoning with encrypted content, shell calls, a custom tool. */
const codexRequest = {
  model: 'gpt-5-codex',
  instructions: 'You are Codex, a coding agent.',
  input: [
    { type: 'message', role: 'developer', content: [{ type: 'input_text', text: '<permissions>workspace-write</permissions>' }] },
    { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'Why does the test fail?' }, { type: 'input_image', image_url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'auto' }] },
    { type: 'reasoning', id: 'rs_1', summary: [{ type: 'summary_text', text: 'Run the tests.' }], encrypted_content: 'gAAAA…' },
    { type: 'function_call', id: 'fc_1', call_id: 'call_1', name: 'shell', arguments: '{"command":["npm","test"]}', status: 'completed' },
    { type: 'function_call_output', call_id: 'call_1', output: 'FAIL src/a.test.ts\n  expected 1, got 2' },
    { type: 'function_call', call_id: 'call_2', name: 'shell', arguments: '{"command":["cat","a.ts"]}' },
    { type: 'function_call', call_id: 'call_3', name: 'shell', arguments: '{"command":["cat","b.ts"]}' },
    { type: 'function_call_output', call_id: 'call_2', output: [{ type: 'input_text', text: 'export const a = 2;' }] },
    { type: 'function_call_output', call_id: 'call_3', output: 'export const b = 1;' },
    { type: 'custom_tool_call', call_id: 'call_4', name: 'apply_patch', input: '*** Begin Patch\n*** End Patch' },
    { type: 'custom_tool_call_output', call_id: 'call_4', output: 'Done!' },
    { id: 'msg_1', type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'Fixed.', annotations: [] }, { type: 'refusal', refusal: 'no' }] },
    { role: 'user', content: 'Thanks. Now the docs.' },
    { type: 'item_reference', id: 'msg_0' },
    { type: 'web_search_call', id: 'ws_1', status: 'completed', action: { type: 'search', query: 'x' } },
  ],
  tools: [
    { type: 'function', name: 'shell', description: 'Runs a command', strict: false, parameters: { type: 'object', properties: { command: { type: 'array', items: { type: 'string' } } }, required: ['command'] } },
    { type: 'custom', name: 'apply_patch', description: 'Applies a patch', format: { type: 'grammar', syntax: 'lark', definition: 'start: x' } },
    { type: 'function', name: 'no_params' },
    { type: 'web_search' },
    { type: 'mcp', server_label: 'docs', server_url: 'https://example.com/mcp' },
  ],
  tool_choice: 'auto',
  parallel_tool_calls: true,
  reasoning: { effort: 'medium', summary: 'auto' },
  store: false,
  stream: true,
  include: ['reasoning.encrypted_content'],
  prompt_cache_key: 'session-1',
};

describe('Responses API converter', () => {
  it('round-trips a Codex-like request with reasoning, parallel calls, custom tools and unknown items to a deep-equal copy', () => {
    const request = fromResponses(codexRequest);
    assert.deepEqual(toResponses(request), codexRequest);
    assert.equal(request.format, 'responses');
    assert.equal(request.messages[0]!.role, 'system', 'instructions lead as the system message');
    assert.equal(request.messages[1]!.role, 'system', 'a developer message is a system message');
    // The model's consecutive items are one assistant turn, as in Chat Completions: reasoning and a call; two parallel calls; …
    assert.deepEqual(request.messages.map((message) => message.role), ['system', 'system', 'user', 'assistant', 'tool', 'assistant', 'tool', 'tool', 'assistant', 'tool', 'assistant', 'user', 'user', 'assistant']);
    assert.deepEqual(request.messages[3]!.parts.map((part) => part.type), ['opaque', 'tool_call'], 'reasoning is opaque, before its call');
    const call = request.messages[3]!.parts[1]!;
    assert.ok(call.type === 'tool_call' && call.id === 'call_1' && call.name === 'shell' && call.arguments === '{"command":["npm","test"]}');
    const output = request.messages[4]!.parts[0]!;
    assert.ok(output.type === 'tool_result' && output.callId === 'call_1');
    assert.match(partText(output), /expected 1, got 2/);
    assert.deepEqual(request.messages[5]!.parts.map((part) => (part.type === 'tool_call' ? part.id : part.type)), ['call_2', 'call_3']);
    assert.equal(request.messages[2]!.parts[1]!.type, 'data');
    assert.deepEqual(request.tools.map((tool) => tool.name), ['shell', 'apply_patch', 'no_params', '', '']);
    assert.equal(request.options.store, false);
  });

  it('keeps previous_response_id and a plain string input as they were', () => {
    const body = { model: 'gpt-5', previous_response_id: 'resp_abc', input: 'Continue.' };
    const request = parseRequest(body);
    assert.equal(request.format, 'responses');
    assert.deepEqual(serializeRequest(request), body);
    assert.equal(request.options.previous_response_id, 'resp_abc');
    assert.deepEqual(toResponses(fromResponses({ model: 'gpt-5', instructions: null, input: [] })), { model: 'gpt-5', instructions: null, input: [] });
    assert.deepEqual(toResponses(fromResponses({ model: 'gpt-5' })), { model: 'gpt-5' });
  });

  it('writes calls, results and tools a host added as Responses items (arguments as JSON text, a function tool)', () => {
    const request = fromResponses({ model: 'gpt-5', input: 'Read it.', store: false });
    const extended = {
      ...request,
      messages: [
        ...request.messages,
        { role: 'assistant' as const, parts: [{ type: 'text' as const, text: 'Looking.' }, { type: 'tool_call' as const, id: 'c9', name: 'herald_retrieve', arguments: { handle: 'hr_aaaaaaaaaaaaaaaa' } }], contentShape: 'parts' as const },
        { role: 'user' as const, parts: [{ type: 'tool_result' as const, callId: 'c9', content: [{ type: 'text' as const, text: 'original' }], contentShape: 'parts' as const }], contentShape: 'parts' as const },
      ],
      tools: [{ name: 'herald_retrieve', description: 'd', inputSchema: { type: 'object' } }],
    };
    assert.deepEqual(toResponses(extended), {
      model: 'gpt-5',
      input: [
        { type: 'message', role: 'user', content: 'Read it.' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Looking.' }] },
        { type: 'function_call', call_id: 'c9', name: 'herald_retrieve', arguments: '{"handle":"hr_aaaaaaaaaaaaaaaa"}' },
        { type: 'function_call_output', call_id: 'c9', output: [{ type: 'input_text', text: 'original' }] },
      ],
      tools: [{ type: 'function', name: 'herald_retrieve', description: 'd', parameters: { type: 'object' } }],
      store: false,
    });
  });

  it('is told apart from the other two formats by its input', () => {
    assert.equal(detectFormat(codexRequest), 'responses');
    assert.equal(detectFormat({ input: 'hi' }), 'responses');
    assert.equal(detectFormat({ messages: [{ role: 'user', content: 'hi' }], input: 'x' }), 'openai');
  });

  it('names the offending field in malformed requests', () => {
    assert.throws(() => fromResponses({ input: 42 }), (error: unknown) => error instanceof FormatError && /input: expected a string or an array/.test(error.message));
    assert.throws(() => fromResponses({ input: [{ role: 'user', content: 7 }] }), /input\[0\]\.content/);
    assert.throws(() => fromResponses({ input: [], tools: {} }), /tools: expected an array/);
    assert.throws(() => fromResponses('nope'), /request: expected an object/);
  });

  it('keeps malformed items (a call without call_id, an output of the wrong type, a bare value) as they were', () => {
    const odd = { input: [{ type: 'function_call', name: 'x' }, { type: 'function_call_output', call_id: 'c', output: 3 }, 'bare', null, { type: 'message', content: 'no role' }], tools: [null, { type: 'function' }] };
    assert.deepEqual(toResponses(fromResponses(odd)), odd);
  });

  describe('generated hostile input', () => {
    const content = fc.oneof(
      hostileText,
      fc.array(fc.oneof(
        hostileText.map((text) => ({ type: 'input_text', text })),
        hostileText.map((text) => ({ type: 'output_text', text, annotations: [] })),
        fc.constant({ type: 'input_image', image_url: 'https://example.com/a.png', detail: 'low' }),
        fc.record({ type: fc.constantFrom('input_file', 'input_audio', 'mystery'), payload: fc.jsonValue({ maxDepth: 3 }) }),
      ), { maxLength: 4 }),
    );
    const callId = fc.constantFrom('call_1', 'call_2', '', 'orphan');
    const item = fc.oneof(
      fc.record({ type: fc.constant('message'), role: fc.constantFrom('user', 'assistant', 'system', 'developer', 'critic'), content }, { requiredKeys: ['role', 'content'] }),
      fc.record({ type: fc.constant('function_call'), call_id: callId, name: fc.constantFrom('shell', 'read'), arguments: fc.oneof(hostileText, fc.constant('{"command":["ls"]}')), id: fc.string({ maxLength: 8 }), status: fc.constant('completed') }, { requiredKeys: ['type', 'call_id', 'name'] }),
      fc.record({ type: fc.constant('function_call_output'), call_id: callId, output: content }, { requiredKeys: ['type', 'call_id'] }),
      fc.record({ type: fc.constant('custom_tool_call'), call_id: callId, name: fc.constant('apply_patch'), input: hostileText }),
      fc.record({ type: fc.constant('custom_tool_call_output'), call_id: callId, output: hostileText }),
      fc.record({ type: fc.constant('reasoning'), id: fc.string({ maxLength: 8 }), summary: fc.array(hostileText.map((text) => ({ type: 'summary_text', text })), { maxLength: 2 }), encrypted_content: fc.string({ maxLength: 40 }) }),
      fc.record({ type: fc.constantFrom('item_reference', 'computer_call', 'local_shell_call'), id: fc.string({ maxLength: 8 }), payload: fc.jsonValue({ maxDepth: 3 }) }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const request = fc.record({
      model: fc.constantFrom('gpt-5', 'gpt-5-codex'),
      instructions: fc.oneof(hostileText, fc.constant(null)),
      input: fc.oneof(hostileText, fc.array(item, { maxLength: 12 })),
      tools: fc.array(fc.oneof(
        fc.record({ type: fc.constant('function'), name: fc.constantFrom('shell', 'read'), description: fc.oneof(hostileText, fc.constant(null)), parameters: fc.jsonValue({ maxDepth: 3 }), strict: fc.boolean() }, { requiredKeys: ['type', 'name'] }),
        fc.record({ type: fc.constant('custom'), name: fc.constant('apply_patch'), format: fc.jsonValue({ maxDepth: 2 }) }),
        fc.jsonValue({ maxDepth: 2 }),
      ), { maxLength: 4 }),
      previous_response_id: fc.string({ maxLength: 12 }),
      store: fc.boolean(),
      reasoning: fc.record({ effort: fc.constantFrom('low', 'high') }),
    }, { requiredKeys: ['input'] });

    it('round-trips every generated request (180 cases)', () => {
      fc.assert(fc.property(request, (body) => {
        const copy = JSON.parse(JSON.stringify(body)) as unknown;
        assert.deepEqual(toResponses(fromResponses(copy)), copy);
      }), { numRuns: 180, seed: 48 });
    });

    it('never makes the default pipeline fail, keeps every part in place and expands back (60 cases)', async function () {
      this.timeout(120_000);
      const tokens = new TokenCounter(50_000);
      await fc.assert(fc.asyncProperty(request, async (body) => {
        const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
        const pipeline = new Pipeline(createStrategies(), {}, { stash, tokens });
        const parsed = parseRequest(JSON.parse(JSON.stringify(body)), 'responses');
        const result = await pipeline.run(parsed);
        const failures = result.decisions.filter((decision) => decision.status === 'failed' || decision.status === 'rejected');
        assert.deepEqual(failures.map((decision) => `${decision.strategy}: ${decision.reason}`), []);
        const wire = parseRequest(JSON.parse(JSON.stringify(serializeRequest(result.request))), 'responses');
        assert.deepEqual(partShape(wire), partShape(parsed));
        assert.ok(await expandsBack(parsed, wire, stash, result.elisions));
      }), { numRuns: 60, seed: 49 });
    });
  });

  it('a Codex-shaped session saves what the same session saves as Chat Completions, byte-stable and lossless (shared data)', async function () {
    skipWithoutData(this);
    this.timeout(60_000);
    const run = async (bodies: readonly unknown[]) => {
      const stash = new Stash({ store: new MemoryBlobStore(), key: new Uint8Array(32) });
      const tokens = new TokenCounter();
      return replay(new Pipeline(createStrategies(), {}, { stash, tokens }), stash, bodies, tokens);
    };
    const trajectory = loadTrajectory('astropy__astropy-12907');
    const chat = await run(turnRequests(trajectory));
    const codex = await run(codexRequests(trajectory));
    assert.equal(codex.turns.length, chat.turns.length);
    assert.equal(codex.prefixStableTurns, codex.turns.length, 'every turn repeats the previous optimized prefix');
    assert.equal(codex.losslessTurns, codex.turns.length, 'every marker expands back');
    const saved = (summary: typeof chat) => 1 - summary.tokensAfter / summary.tokensBefore;
    assert.ok(saved(codex) >= 0.9 * saved(chat), `Responses saved ${saved(codex).toFixed(3)}, Chat Completions ${saved(chat).toFixed(3)}`);
    assert.ok((codex.savedByStrategy.observation_mask ?? 0) > 0, 'tool outputs in function_call_output items are seen as tool outputs');
  });
});
