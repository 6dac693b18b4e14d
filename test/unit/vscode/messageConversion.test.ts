import { strict as assert } from 'node:assert';
import { fromVscode, toVscodeMessages, toVscodeTools } from '../../../src/vscode/chat/messageConversion';
import { FakeData, FakeMessage, FakeText, FakeThinking, FakeToolCall, FakeToolResult, fakeKit } from './fakePartKit';

describe('VS Code message conversion', () => {
  const image = new FakeData(new Uint8Array([137, 80, 78, 71]), 'image/png');
  const thinking = new FakeThinking('pondering', 'think-1');
  const messages = [
    new FakeMessage(1, [new FakeText('Fix the bug'), image], undefined),
    new FakeMessage(2, [thinking, new FakeText('Reading the file.'), new FakeToolCall('call-1', 'read_file', { path: 'a.ts' })], 'agent'),
    new FakeMessage(1, [new FakeToolResult('call-1', [new FakeText('const a = 1;'), { custom: true }])], undefined),
    new FakeMessage(7, [new FakeText('a role this converter does not know')], undefined),
  ];
  const tools = [{ name: 'read_file', description: 'Reads a file', inputSchema: { type: 'object' } }];

  it('maps every part kind onto the neutral model', () => {
    const request = fromVscode(messages, tools, fakeKit, { toolMode: 1 }, 'endpoint:x');
    assert.equal(request.format, 'vscode');
    assert.deepEqual(request.messages.map((message) => message.role), ['user', 'assistant', 'user', 'user']);
    assert.deepEqual(request.messages[0]!.parts.map((part) => part.type), ['text', 'data']);
    const data = request.messages[0]!.parts[1]!;
    assert.ok(data.type === 'data' && data.mimeType === 'image/png' && data.data === Buffer.from([137, 80, 78, 71]).toString('base64'));
    assert.deepEqual(request.messages[1]!.parts.map((part) => part.type), ['opaque', 'text', 'tool_call']);
    const call = request.messages[1]!.parts[2]!;
    assert.ok(call.type === 'tool_call' && call.id === 'call-1' && call.name === 'read_file');
    const result = request.messages[2]!.parts[0]!;
    assert.ok(result.type === 'tool_result' && result.callId === 'call-1');
    assert.deepEqual(result.content.map((inner) => inner.type), ['text', 'opaque']);
    assert.equal(request.messages[1]!.name, 'agent');
    assert.deepEqual(request.tools, [{ name: 'read_file', description: 'Reads a file', inputSchema: { type: 'object' } }]);
  });

  it('round-trips an untouched request, handing back the original objects of parts it does not rebuild', () => {
    const back = toVscodeMessages(fromVscode(messages, tools, fakeKit), fakeKit) as FakeMessage[];
    assert.equal(back.length, messages.length);
    back.forEach((message, index) => {
      assert.equal(message.role, messages[index]!.role);
      assert.equal(message.name, messages[index]!.name);
    });
    assert.equal(back[0]!.content[1], image, 'the data part is the same object');
    assert.equal(back[1]!.content[0], thinking, 'an unknown part is the same object');
    assert.deepEqual(back, messages.map((message) => new FakeMessage(message.role, message.content, message.name)));
  });

  it('writes changed text and rebuilt data parts with the kit, and parses JSON-string arguments', () => {
    const request = fromVscode(messages, tools, fakeKit);
    const changed = {
      ...request,
      messages: request.messages.map((message, index) =>
        index === 1 ? { ...message, parts: [{ type: 'tool_call' as const, id: 'c', name: 'n', arguments: '{"x":1}' }] } : index === 0 ? { ...message, parts: [{ type: 'data' as const, mimeType: 'image/jpeg', data: 'AAEC', encoding: 'base64' as const }] } : message,
      ),
    };
    const back = toVscodeMessages(changed, fakeKit) as FakeMessage[];
    assert.deepEqual(back[1]!.content, [new FakeToolCall('c', 'n', { x: 1 })]);
    assert.deepEqual(back[0]!.content, [new FakeData(new Uint8Array([0, 1, 2]), 'image/jpeg')]);
  });

  it('writes tools back in their order with their schemas', () => {
    const request = fromVscode([], [...tools, { name: 'b', description: '' }], fakeKit);
    assert.deepEqual(toVscodeTools(request), [tools[0], { name: 'b', description: '' }]);
  });
});
