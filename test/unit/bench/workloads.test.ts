import { strict as assert } from 'node:assert';
import { parseRequest } from '../../../src/core/chat';
import { messageText } from '../../../src/core/chat/types';
import { hasSharedData } from '../../support/sharedData';
import { buildWorkloads, containsFact, type Workload } from '../../support/workloads';
import { visibleText } from '../../support/workloads/measure';

describe('bench support: the one-request workloads', () => {
  let workloads: Workload[] = [];
  before(function () {
    if (!hasSharedData()) this.skip();
    workloads = buildWorkloads();
  });

  it('are at least 25, with distinct ids, across the three categories', () => {
    assert.ok(workloads.length >= 25, `${workloads.length} workloads`);
    assert.equal(new Set(workloads.map((workload) => workload.id)).size, workloads.length);
    assert.deepEqual(new Set(workloads.map((workload) => workload.category)), new Set(['logs and data', 'code search, diffs, multi-file', 'RAG and tool-heavy']));
  });

  it('each has facts, and every fact occurs in the request as built (a fact the request never showed would measure nothing)', () => {
    for (const workload of workloads) {
      assert.ok(workload.facts.length > 0, `${workload.id} has no facts`);
      const text = parseRequest(workload.body).messages.map(messageText).join('\n');
      for (const fact of workload.facts) assert.ok(containsFact(text, fact), `${workload.id}: ${JSON.stringify(fact)} is not in its request`);
    }
  });

  it('parse as chat requests whose last message is the turn to answer (a user message or a tool result)', () => {
    for (const workload of workloads) {
      const request = parseRequest(workload.body);
      assert.ok(['user', 'tool'].includes(request.messages[request.messages.length - 1]!.role), workload.id);
    }
  });
});

describe('bench support: facts and visibility', () => {
  it('finds a fact only as a whole, not glued to letters or digits', () => {
    assert.ok(containsFact('spike of 743 connections', '743'));
    assert.ok(!containsFact('spike of 17431 connections', '743'));
    assert.ok(containsFact('at [10.30 21:46]', '10.30 21:46'));
    assert.ok(containsFact('x: ] Directory index', '] Directory index'));
  });

  it('does not count what sits inside a Herald marker as visible', () => {
    const request = parseRequest({ model: 'm', messages: [{ role: 'user', content: 'kept line\n[herald: 3 lines with 743 elided · retrieve hr_aaaaaaaaaaaaaaaa]' }] });
    const text = visibleText(request);
    assert.ok(text.includes('kept line'));
    assert.ok(!containsFact(text, '743'));
  });
});
