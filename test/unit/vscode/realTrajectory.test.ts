import { strict as assert } from 'node:assert';
import { partText } from '../../../src/core/chat/types';
import { Pipeline } from '../../../src/core/pipeline/pipeline';
import { MemoryBlobStore } from '../../../src/core/stash/blobStore';
import { Stash } from '../../../src/core/stash/stash';
import { createStrategies } from '../../../src/core/strategies/index';
import { TokenCounter } from '../../../src/core/tokens/tokenCounter';
import { fromVscode, toVscodeMessages } from '../../../src/vscode/chat/messageConversion';
import { runRequestFlow, RETRIEVE_TOOL_NAME } from '../../../src/core/flow/requestFlow';
import { RecordingLogger } from '../../../src/core/ports';
import { describeWithData, loadTrajectory } from '../../support/sharedData';
import { FakeMessage, FakeText, fakeKit } from './fakePartKit';
import { FakeTarget } from '../flow/fakeTarget';

/** A real mini-swe-agent run, as a VS Code caller would send it to a Herald model. */
function vscodeMessages(instance: string, count: number): FakeMessage[] {
  const trajectory = loadTrajectory(instance) as unknown as { messages: { role: string; content: unknown }[] };
  const messages = trajectory.messages.slice(0, count).map((message) => new FakeMessage(message.role === 'assistant' ? 2 : 1, [new FakeText(typeof message.content === 'string' ? message.content : JSON.stringify(message.content))], undefined));
  while (messages.at(-1)?.role === 2) messages.pop();
  return messages;
}

(describeWithData)('a real agent run through the host (shared data)', () => {
  for (const instance of ['django__django-14915', 'astropy__astropy-12907']) {
    it(`${instance}: smaller request, every elided original retrievable byte for byte, untouched caller parts`, async () => {
      const messages = vscodeMessages(instance, 40);
      const stash = new Stash({ store: new MemoryBlobStore() });
      const pipeline = new Pipeline(createStrategies({}), {}, { stash, tokens: new TokenCounter() });
      const request = fromVscode(messages, [], fakeKit, {}, 'fake:1');
      let handle = '';
      const target = new FakeTarget([
        (sent) => {
          handle = /retrieve (hr_[a-z2-7]{16})/.exec(JSON.stringify(sent.messages))?.[1] ?? '';
          return handle ? [{ type: 'tool_call', id: 'r', name: RETRIEVE_TOOL_NAME, input: { handle } }] : [{ type: 'text', text: 'no markers' }];
        },
        [{ type: 'text', text: 'done' }],
      ]);
      const record = await runRequestFlow({
        id: 'real',
        request,
        target,
        optimize: (input, windowTokens, signal) => pipeline.run(input, { windowTokens, signal }),
        retrieve: (value) => stash.retrieve(value),
        report: () => undefined,
        signal: new AbortController().signal,
        retrieveRounds: 2,
        logger: new RecordingLogger(),
        countTokens: () => 0,
      });
      assert.ok(record.tokensAfter < record.tokensBefore, `${record.tokensAfter} < ${record.tokensBefore}`);
      assert.ok(record.handles.length > 0, 'something was elided');
      const input = messages.map((message) => (message.content[0] as FakeText).value).join('\n');
      for (const stashed of record.handles) {
        const original = await stash.retrieve(stashed);
        assert.ok(original !== undefined && original.length > 0, `${stashed} retrievable`);
      }
      // The retrieve answer the model got is a piece of the caller's own conversation (an inner
      // elision it kept, edit_mask's inside history_trim's original, expands in turn).
      const answer = partText(target.received[1]!.messages.at(-1)!.parts[0]!);
      assert.ok(handle && input.includes(await stash.expandText(answer)), 'the original comes back byte for byte');
      // The optimized request converts back to VS Code messages of the same shape.
      const back = toVscodeMessages(target.received[0]!, fakeKit) as FakeMessage[];
      assert.deepEqual(back.map((message) => message.role), messages.map((message) => message.role));
      // The fresh input (the last user message) reached the model as it was or digested on
      // arrival, and expands back to what the caller sent.
      const fresh = back.at(-1)!;
      assert.equal(fresh.role, messages.at(-1)!.role);
      assert.equal(await stash.expandText((fresh.content[0] as FakeText).value), (messages.at(-1)!.content[0] as FakeText).value);
    });
  }
});
