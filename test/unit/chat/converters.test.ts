import { strict as assert } from 'node:assert';
import { detectFormat, fromAnthropic, fromOpenAI, parseRequest, serializeRequest, toAnthropic, toOpenAI, FormatError } from '../../../src/core/chat';
import { loadTrajectory, skipWithoutData, trajectoryNames } from '../../support/sharedData';

const openAiRequest = {
  model: 'gpt-4o',
  temperature: 0.2,
  stream: true,
  tool_choice: 'auto',
  response_format: { type: 'text' },
  tools: [
    { type: 'function', function: { name: 'read_file', description: 'Read a file', parameters: { type: 'object', properties: { path: { type: 'string' } } }, strict: true } },
    { type: 'function', function: { name: 'no_params' } },
  ],
  messages: [
    { role: 'developer', content: 'Be brief.' },
    { role: 'system', content: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }] },
    { role: 'user', content: [{ type: 'text', text: 'What is in the screenshot?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=', detail: 'high' } }, { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } }], name: 'sam' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'read_file', arguments: '{"path":"a.ts"}' } }], refusal: null },
    { role: 'tool', tool_call_id: 'call_1', content: 'export const a = 1;\n' },
    { role: 'assistant', content: 'Done.', audio: { id: 'x' } },
    { role: 'function', name: 'legacy', content: 'old style' },
  ],
  metadata: { custom: [1, 2, 3] },
};

const anthropicRequest = {
  model: 'claude-sonnet-4-5',
  max_tokens: 2048,
  system: [{ type: 'text', text: 'You are a coding agent.', cache_control: { type: 'ephemeral' } }],
  thinking: { type: 'enabled', budget_tokens: 4000 },
  tools: [
    { name: 'bash', description: 'Run a command', input_schema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] }, cache_control: { type: 'ephemeral' } },
    { type: 'web_search_20250305', name: 'web_search', max_uses: 3 },
  ],
  messages: [
    { role: 'user', content: 'Fix the failing test.' },
    {
      role: 'assistant',
      content: [
        { type: 'thinking', thinking: 'Let me look.', signature: 'sig123' },
        { type: 'redacted_thinking', data: 'opaque==' },
        { type: 'text', text: 'Running the tests.' },
        { type: 'tool_use', id: 'toolu_1', name: 'bash', input: { command: 'npm test' } },
      ],
    },
    {
      role: 'user',
      content: [
        { type: 'tool_result', tool_use_id: 'toolu_1', content: 'FAIL a.test.ts', is_error: true, cache_control: { type: 'ephemeral' } },
        { type: 'tool_result', tool_use_id: 'toolu_2', content: [{ type: 'text', text: 'part one' }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } }] },
        { type: 'tool_result', tool_use_id: 'toolu_3', is_error: false },
        { type: 'image', source: { type: 'url', url: 'https://example.com/a.png' } },
        { type: 'document', source: { type: 'text', media_type: 'text/plain', data: 'doc' } },
        { type: 'text', text: 'Here are the results.' },
      ],
    },
  ],
};

describe('chat converters', () => {
  it('round-trips an OpenAI request with unknown fields and parts to a deep-equal copy', () => {
    const request = fromOpenAI(openAiRequest);
    assert.deepEqual(toOpenAI(request), openAiRequest);
    assert.equal(request.messages[0]!.role, 'system');
    assert.equal(request.messages[2]!.parts[1]!.type, 'data');
    assert.equal(request.messages[2]!.parts[2]!.type, 'opaque');
    assert.equal(request.messages[4]!.parts[0]!.type, 'tool_result');
  });

  it('round-trips an Anthropic request with thinking, documents, images and cache_control', () => {
    const request = fromAnthropic(anthropicRequest);
    assert.deepEqual(toAnthropic(request), anthropicRequest);
    assert.equal(request.messages[0]!.role, 'system');
    const toolResult = request.messages[3]!.parts[0]!;
    assert.equal(toolResult.type, 'tool_result');
    assert.equal(toolResult.type === 'tool_result' && toolResult.isError, true);
    const thinking = request.messages[2]!.parts[0]!;
    assert.equal(thinking.type === 'opaque' && thinking.kind, 'thinking');
  });

  it('detects the format by shape', () => {
    assert.equal(detectFormat(openAiRequest), 'openai');
    assert.equal(detectFormat(anthropicRequest), 'anthropic');
    assert.equal(detectFormat({ messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'a', content: 'x' }] }] }), 'anthropic');
    assert.equal(detectFormat({ messages: [{ role: 'user', content: 'hi' }] }), 'openai');
    assert.throws(() => detectFormat({ prompt: 'hi' }), /messages/);
  });

  it('names the offending field in malformed requests', () => {
    assert.throws(() => fromOpenAI({ messages: [{ role: 'user', content: 'ok' }, { content: 'no role' }] }), (error: unknown) => error instanceof FormatError && /messages\[1\]\.role/.test(error.message));
    assert.throws(() => fromAnthropic({ messages: 'nope' }), /messages: expected an array/);
    assert.throws(() => parseRequest(null), /messages/);
  });

  it('keeps malformed tool calls and unknown tools as they were', () => {
    const odd = { messages: [{ role: 'assistant', content: 'x', tool_calls: [{ id: 7, function: 'bad' }] }], tools: [{ type: 'retrieval' }] };
    assert.deepEqual(toOpenAI(fromOpenAI(odd)), odd);
  });

  it('round-trips every request of every real trajectory', function () {
    skipWithoutData(this);
    let requests = 0;
    for (const name of trajectoryNames()) {
      const { messages } = loadTrajectory(name);
      const body = { model: 'gpt-4o', messages };
      const parsed = parseRequest(body);
      assert.equal(parsed.format, 'openai');
      assert.deepEqual(serializeRequest(parsed), body, name);
      requests++;
    }
    assert.equal(requests, trajectoryNames().length);
  });
});
