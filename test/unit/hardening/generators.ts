/** fast-check generators of hostile chat requests in OpenAI and Anthropic format. */
import fc from 'fast-check';

const nasty = fc.constantFrom('', ' ', '\n\n\t ', '\u0000\u0001binary\u0000', '\ud800 lone high', 'lone low \udfff', '😀'.repeat(10), '[herald: 3 lines elided · retrieve hr_aaaaaaaaaaaaaaaa]', '<output>\nfake\n</output>', '```bash\nrm -rf /\n```', '{"a":[1,2,{"b":null}]}');

/** Deeply nested JSON as text. */
const nestedJson = fc.integer({ min: 1, max: 400 }).map((depth) => '['.repeat(depth) + '"x"' + ']'.repeat(depth));

const logLike = fc.integer({ min: 20, max: 300 }).chain((lines) => fc.constantFrom('INFO', 'WARN', 'ERROR').map((level) => Array.from({ length: lines }, (_, index) => `2026-01-01T00:00:${String(index % 60).padStart(2, '0')}Z ${index % 17 === 0 ? level : 'INFO'} worker ${index % 5} handled job ${index}`).join('\n')));

const longLine = fc.integer({ min: 1000, max: 200_000 }).map((length) => 'x'.repeat(length));

export const hostileText = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 200 }) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 200 }) },
  { weight: 2, arbitrary: nasty },
  { weight: 1, arbitrary: nestedJson },
  { weight: 2, arbitrary: logLike },
  { weight: 1, arbitrary: longLine },
);

const unknownBlock = fc.record({ type: fc.constantFrom('input_audio', 'file', 'mystery_block'), payload: fc.jsonValue({ maxDepth: 3 }) });

const callId = fc.constantFrom('c1', 'c2', 'c3', 'orphan', '');

const openAiContent = fc.oneof(
  hostileText,
  fc.array(fc.oneof(
    hostileText.map((text) => ({ type: 'text', text })),
    fc.constant({ type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }),
    unknownBlock,
  ), { maxLength: 4 }),
);

const openAiMessage = fc.oneof(
  fc.record({ role: fc.constantFrom('system', 'user', 'developer'), content: openAiContent }),
  fc.record({
    role: fc.constant('assistant'),
    content: fc.oneof(fc.constant(null), hostileText),
    tool_calls: fc.array(fc.record({ id: callId, type: fc.constant('function'), function: fc.record({ name: fc.constantFrom('bash', 'read_file', 'grep'), arguments: fc.oneof(hostileText, fc.constant('{"command":"npm test"}')) }) }), { maxLength: 3 }),
  }, { requiredKeys: ['role', 'content'] }),
  fc.record({ role: fc.constant('tool'), tool_call_id: callId, content: openAiContent }),
);

export const openAiRequest = fc.record({
  model: fc.constantFrom('gpt-4o', 'claude-sonnet-4-5', 'local'),
  messages: fc.array(openAiMessage, { minLength: 1, maxLength: 12 }),
  temperature: fc.double({ min: 0, max: 2, noNaN: true }),
}, { requiredKeys: ['model', 'messages'] });

const anthropicBlock = fc.oneof(
  hostileText.map((text) => ({ type: 'text', text })),
  fc.record({ type: fc.constant('tool_use'), id: callId, name: fc.constantFrom('bash', 'edit'), input: fc.jsonValue({ maxDepth: 3 }) }),
  fc.record({ type: fc.constant('tool_result'), tool_use_id: callId, content: fc.oneof(hostileText, fc.array(hostileText.map((text) => ({ type: 'text', text })), { maxLength: 3 })), is_error: fc.boolean() }, { requiredKeys: ['type', 'tool_use_id'] }),
  fc.record({ type: fc.constant('thinking'), thinking: hostileText, signature: fc.string({ maxLength: 20 }) }),
  fc.constant({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBOR' } }),
  unknownBlock,
);

export const anthropicRequest = fc.record({
  model: fc.constant('claude-sonnet-4-5'),
  max_tokens: fc.integer({ min: 1, max: 200_000 }),
  system: fc.oneof(hostileText, fc.array(hostileText.map((text) => ({ type: 'text', text })), { maxLength: 2 })),
  messages: fc.array(fc.record({ role: fc.constantFrom('user', 'assistant'), content: fc.oneof(hostileText, fc.array(anthropicBlock, { maxLength: 4 })) }), { minLength: 1, maxLength: 12 }),
}, { requiredKeys: ['model', 'max_tokens', 'messages'] });

/** A JSON value nested `depth` levels deep, alternating arrays and objects (recursion in hashing and converters). */
export function deepValue(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = level % 2 === 0 ? [value] : { nested: value };
  return value;
}

/** Tool ids that do not pair up: duplicated, never called, empty, huge, or full of odd characters. */
const oddCallId = fc.constantFrom('c1', 'c1', 'never_called', '', ' ', 'x'.repeat(2000), 'id with spaces', 'call_\u0000\ud800', '../../etc/passwd', '[herald: 1 line elided · retrieve hr_aaaaaaaaaaaaaaaa]');

/**
 * Long OpenAI sessions (1,000 to 3,000 messages) built from a handful of generated texts, with
 * mismatched tool ids, results before their calls, and deeply nested tool arguments.
 */
export const longOpenAiSession = fc.record({
  length: fc.integer({ min: 1000, max: 3000 }),
  texts: fc.array(hostileText, { minLength: 3, maxLength: 8 }),
  ids: fc.array(oddCallId, { minLength: 3, maxLength: 6 }),
  depth: fc.integer({ min: 50, max: 3000 }),
}).map(({ length, texts: generated, ids, depth }) => {
  // Each text repeats hundreds of times: megabyte lines here would make every case a gigabyte.
  const texts = generated.map((text) => text.slice(0, 4000));
  const messages: unknown[] = [{ role: 'system', content: texts[0] }, { role: 'user', content: texts[1] }];
  for (let index = 0; messages.length < length; index++) {
    const id = ids[index % ids.length]!;
    const text = texts[index % texts.length]!;
    switch (index % 5) {
      case 0:
        messages.push({ role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: index % 50 === 0 ? JSON.stringify(deepValue(depth)) : JSON.stringify({ command: `cat f${index % 40}` }) } }] });
        break;
      case 1:
        messages.push({ role: 'tool', tool_call_id: ids[(index + 1) % ids.length], content: text });
        break;
      case 2:
        messages.push({ role: 'tool', tool_call_id: id, content: [{ type: 'text', text }, { type: 'mystery_block', payload: index % 50 === 2 ? deepValue(depth) : index }] });
        break;
      case 3:
        messages.push({ role: 'assistant', content: text });
        break;
      default:
        messages.push({ role: 'user', content: `<returncode>${index % 3}</returncode>\n<output>\n${text}\n</output>` });
    }
  }
  return { model: 'gpt-4o', messages };
});

/** Anthropic requests whose blocks nest JSON deeply (tool input, unknown blocks) and whose tool ids do not pair up. */
export const deepAnthropicRequest = fc.record({
  depth: fc.integer({ min: 100, max: 3000 }),
  texts: fc.array(hostileText, { minLength: 2, maxLength: 5 }),
  ids: fc.array(oddCallId, { minLength: 2, maxLength: 4 }),
}).map(({ depth, texts, ids }) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  system: texts[0],
  messages: [
    { role: 'user', content: texts[1] },
    { role: 'assistant', content: [{ type: 'text', text: texts[0] }, { type: 'tool_use', id: ids[0], name: 'edit', input: { tree: deepValue(depth) } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: ids[1], content: [{ type: 'text', text: texts[texts.length - 1] }] }, { type: 'mystery_block', payload: deepValue(depth) }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: ids[0], name: 'bash', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: ids[0], content: texts[1], is_error: true }, { type: 'text', text: texts[0] }] },
  ],
}));
