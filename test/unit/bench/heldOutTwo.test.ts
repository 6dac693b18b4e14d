import { strict as assert } from 'node:assert';
import { parseRequest } from '../../../src/core/chat';
import { messageText } from '../../../src/core/chat/types';
import { itWithData } from '../../support/sharedData';
import { containsFact, heldOutHalf, heldOutTwoWorkloads, type Workload } from '../../support/workloads';

describe('bench support: the second held-out set (held-out-2)', () => {
  let built: Workload[] | undefined;
  const workloads = (): Workload[] => (built ??= heldOutTwoWorkloads());

  itWithData('has 12 to 16 workloads with distinct ids, a source and a question each', () => {
    const all = workloads();
    assert.ok(all.length >= 12 && all.length <= 16, `${all.length} workloads`);
    assert.equal(new Set(all.map((workload) => workload.id)).size, all.length);
    for (const workload of all) assert.ok(workload.source.length > 0 && workload.question.length > 0, workload.id);
  });

  itWithData('has facts in every workload, each occurring verbatim in the request as built', () => {
    for (const workload of workloads()) {
      assert.ok(workload.facts.length > 0, `${workload.id} has no facts`);
      const text = parseRequest(workload.body).messages.map(messageText).join('\n');
      for (const fact of workload.facts) assert.ok(containsFact(text, fact), `${workload.id}: ${JSON.stringify(fact)} is not in its request`);
    }
  });

  itWithData('parses each as a chat request ending in the turn to answer (a user message or a tool result)', () => {
    for (const workload of workloads()) {
      const request = parseRequest(workload.body);
      assert.ok(['user', 'tool'].includes(request.messages[request.messages.length - 1]!.role), workload.id);
    }
  });

  itWithData('falls into both halves of the held-out split', () => {
    const halves = new Set(workloads().map((workload) => heldOutHalf(workload.id)));
    assert.deepEqual(halves, new Set(['tune', 'measure']));
  });
});
