import { strict as assert } from 'node:assert';
import { findToolOutputs, parseRequest, replaceSegments } from '../../../src/core/chat';
import { loadTrajectory, skipWithoutData } from '../../support/sharedData';

describe('tool output segments', () => {
  it('finds OpenAI tool results with the command that produced them', () => {
    const request = parseRequest({
      messages: [
        { role: 'user', content: 'run it' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run_in_terminal', arguments: '{"command":"npm test"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'Tests: 2 failed' },
      ],
    });
    const [segment] = findToolOutputs(request);
    assert.equal(segment?.text, 'Tests: 2 failed');
    assert.equal(segment?.command, 'npm test');
    assert.equal(segment?.toolName, 'run_in_terminal');
    assert.equal(segment?.source, 'tool_result');
  });

  it('reads the shell prompt line a user pasted above an output as its command, outside the segment', () => {
    const output = Array.from({ length: 40 }, (_, index) => `src/app/module_${index % 4}.py:${index + 1}:    total = refund(amount_${index})`).join('\n');
    const content = `Where is refund defined?\n\n$ grep -rn refund src\n${output}`;
    const [segment] = findToolOutputs(parseRequest({ messages: [{ role: 'user', content }] }));
    assert.equal(segment?.command, 'grep -rn refund src');
    assert.equal(segment?.text, output);
    assert.equal(content.slice(0, segment!.start), 'Where is refund defined?\n\n$ grep -rn refund src\n');
    const [bare] = findToolOutputs(parseRequest({ messages: [{ role: 'user', content: `Where is refund defined?\n\n${output}` }] }));
    assert.equal(bare?.command, undefined);
    assert.equal(bare?.text, output);
    // A transcript of several commands names none of them.
    const [transcript] = findToolOutputs(parseRequest({ messages: [{ role: 'user', content: `Why?\n\n$ cd src\n$ grep -rn refund .\n${output}` }] }));
    assert.equal(transcript?.command, undefined);
  });

  it('finds Anthropic tool results with is_error', () => {
    const request = parseRequest({
      system: 's',
      messages: [
        { role: 'user', content: 'go' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'make' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'error: missing ;', is_error: true }, { type: 'text', text: 'what now?' }] },
      ],
    });
    const segments = findToolOutputs(request);
    assert.equal(segments.length, 1);
    assert.equal(segments[0]!.isError, true);
    assert.equal(segments[0]!.command, 'make');
  });

  it('finds output pasted by an agent and replaces only it, leaving the words around it', function () {
    skipWithoutData(this);
    const trajectory = loadTrajectory('astropy__astropy-12907');
    const request = parseRequest({ messages: trajectory.messages.slice(0, 6) });
    const segments = findToolOutputs(request);
    assert.ok(segments.length >= 2);
    const first = segments[0]!;
    assert.equal(first.source, 'pasted');
    assert.equal(first.exitCode, 0);
    assert.equal(first.command, 'ls -R');
    const replaced = replaceSegments(request, new Map([[first.key, 'SHORT']]));
    const before = request.messages[first.messageIndex]!.parts[0]!;
    const after = replaced.messages[first.messageIndex]!.parts[0]!;
    assert.ok(before.type === 'text' && after.type === 'text');
    if (before.type === 'text' && after.type === 'text') {
      assert.equal(after.text, before.text.slice(0, first.start) + 'SHORT' + before.text.slice(first.end));
      assert.ok(after.text.startsWith('<returncode>0</returncode>'));
    }
    // Untouched messages keep their identity.
    assert.equal(replaced.messages[0], request.messages[0]);
  });

  it('never treats the task or short fenced code in a user message as output', () => {
    const request = parseRequest({
      messages: [
        { role: 'user', content: 'Task:\n```\n' + 'x\n'.repeat(100) + '```' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'Here is a snippet:\n```js\nconst a = 1;\n```\nwhy?' },
        { role: 'assistant', content: 'ok' },
        { role: 'user', content: 'My log:\n```\n' + 'INFO line\n'.repeat(60) + '```\nWhat failed?' },
      ],
    });
    const segments = findToolOutputs(request);
    assert.equal(segments.length, 1);
    assert.equal(segments[0]!.messageIndex, 4);
    assert.equal(segments[0]!.text, 'INFO line\n'.repeat(59) + 'INFO line');
  });

  it('gives the segments of what an array holds now, and a copy each time', () => {
    const request = parseRequest({
      messages: [
        { role: 'user', content: 'run it' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run_in_terminal', arguments: '{"command":"ls"}' } }] },
        { role: 'tool', tool_call_id: 'c1', content: 'a.txt' },
      ],
    });
    const first = findToolOutputs(request);
    first.pop();
    assert.deepEqual(findToolOutputs(request).map((segment) => segment.text), ['a.txt'], 'the caller changing its array changes nothing');
    // An array filled after its segments were read (as a strategy fills a copy) is read again.
    const messages = [...request.messages];
    const copy = { ...request, messages };
    assert.equal(findToolOutputs(copy)[0]?.text, 'a.txt');
    const other = parseRequest({ messages: [{ role: 'tool', tool_call_id: 'c1', content: 'b.txt' }] }).messages[0]!;
    messages[2] = other;
    assert.deepEqual(findToolOutputs(copy).map((segment) => segment.text), ['b.txt']);
  });
});
