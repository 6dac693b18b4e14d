import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseRequest } from '../../../src/core/chat';
import { messageText } from '../../../src/core/chat/types';
import { loadTrajectory, itWithData, trajectoryNames } from '../../support/sharedData';
import { containsFact, HELD_OUT_THREE_PAIRS, heldOutThreeHalf, heldOutThreeWorkloads, type Workload } from '../../support/workloads';
import { dataWorkloads } from '../../support/workloads/data';
import { fnv1a } from '../../support/workloads/heldOutSplit';
import { mcpToolsLeftOut } from '../../support/workloads/heldOutThreeSources';
import { judgements, twoAnswerQueries } from '../../support/workloads/rag';

const FOLDER = path.resolve(__dirname, '..', '..', 'support', 'workloads');

/** The text of every other workload set's source files (the own set and held-out 1 and 2). */
function otherSetsSource(): string {
  return fs.readdirSync(FOLDER).filter((name) => name.endsWith('.ts') && !name.startsWith('heldOutThree')).map((name) => fs.readFileSync(path.join(FOLDER, name), 'utf8')).join('\n');
}

/** What the user or the tools put in the request: every message's text but the system prompt's. */
function bulkChars(workload: Workload): number {
  return parseRequest(workload.body).messages.filter((message) => message.role !== 'system').map(messageText).join('\n').length;
}

describe('bench support: the third held-out set (held-out-3)', () => {
  let built: Workload[] | undefined;
  const workloads = (): Workload[] => (built ??= heldOutThreeWorkloads());
  const byId = (id: string): Workload => workloads().find((workload) => workload.id === id)!;

  it('has 8 pairs of 16 distinct workload ids, all prefixed h3-', () => {
    assert.equal(HELD_OUT_THREE_PAIRS.length, 8);
    const ids = HELD_OUT_THREE_PAIRS.flatMap((pair) => pair.workloads);
    assert.equal(ids.length, 16);
    assert.equal(new Set(ids).size, 16);
    assert.equal(new Set(HELD_OUT_THREE_PAIRS.map((pair) => pair.id)).size, 8);
    for (const id of [...ids, ...HELD_OUT_THREE_PAIRS.map((pair) => pair.id)]) assert.match(id, /^h3-/);
  });

  it('puts one workload of each pair in each half: 8 tune, 8 measure', () => {
    for (const pair of HELD_OUT_THREE_PAIRS) assert.deepEqual(new Set(pair.workloads.map(heldOutThreeHalf)), new Set(['tune', 'measure']), pair.id);
    const halves = HELD_OUT_THREE_PAIRS.flatMap((pair) => pair.workloads.map(heldOutThreeHalf));
    assert.equal(halves.filter((half) => half === 'tune').length, 8);
    assert.equal(halves.filter((half) => half === 'measure').length, 8);
  });

  it('splits by the fixed rule: fnv1a(pair id) even → the first is tune, odd → the second', () => {
    for (const pair of HELD_OUT_THREE_PAIRS) {
      const tune = fnv1a(pair.id) % 2 === 0 ? pair.workloads[0] : pair.workloads[1];
      for (const id of pair.workloads) assert.equal(heldOutThreeHalf(id), id === tune ? 'tune' : 'measure', id);
    }
    // Pinned as written before anything was measured: fails if the rule, a pair id or the order changes.
    const tune = HELD_OUT_THREE_PAIRS.flatMap((pair) => pair.workloads.filter((id) => heldOutThreeHalf(id) === 'tune'));
    assert.deepEqual(tune, ['h3-mac-syslog-daytime', 'h3-junit-registration-xml', 'h3-django-migrations-run', 'h3-spans-transcript-session', 'h3-kb-passages-41', 'h3-grep-sqlite-version', 'h3-reads-annotation-refs', 'h3-mcp-tools-merge']);
    assert.throws(() => heldOutThreeHalf('h2-grep-e015-tool'));
  });

  itWithData('builds the 16 workloads in pair order, each with a source and a question', () => {
    assert.deepEqual(workloads().map((workload) => workload.id), HELD_OUT_THREE_PAIRS.flatMap((pair) => pair.workloads));
    for (const workload of workloads()) assert.ok(workload.source.length > 0 && workload.question.length > 0 && workload.pattern.length > 0, workload.id);
  });

  itWithData('pairs like with like: same category, same last turn, sizes within 1.5×', () => {
    for (const pair of HELD_OUT_THREE_PAIRS) {
      const [first, second] = pair.workloads.map(byId) as [Workload, Workload];
      assert.equal(first.category, second.category, pair.id);
      const last = (workload: Workload): string => parseRequest(workload.body).messages.at(-1)!.role;
      assert.equal(last(first), last(second), pair.id);
      const [a, b] = [bulkChars(first), bulkChars(second)];
      assert.ok(Math.max(a, b) <= 1.5 * Math.min(a, b), `${pair.id}: ${a} and ${b} characters`);
    }
  });

  itWithData('has 3 to 8 non-empty facts in every workload, each occurring verbatim in the request as built', () => {
    for (const workload of workloads()) {
      assert.ok(workload.facts.length >= 3 && workload.facts.length <= 8, `${workload.id} has ${workload.facts.length} facts`);
      assert.equal(new Set(workload.facts).size, workload.facts.length, `${workload.id} repeats a fact`);
      const text = parseRequest(workload.body).messages.map(messageText).join('\n');
      for (const fact of workload.facts) {
        assert.ok(fact.trim().length > 0, `${workload.id} has an empty fact`);
        assert.ok(containsFact(text, fact), `${workload.id}: ${JSON.stringify(fact)} is not in its request`);
      }
    }
  });

  itWithData('parses each as a chat request ending in the turn to answer (a user message or a tool result)', () => {
    for (const workload of workloads()) {
      const request = parseRequest(workload.body);
      assert.ok(['user', 'tool'].includes(request.messages.at(-1)!.role), workload.id);
    }
  });

  itWithData('uses no piece of the data the other sets use', () => {
    const others = otherSetsSource();
    const sources = workloads().map((workload) => workload.source).join('\n');
    // loghub Mac: held-out-2 slices lines, no set reads the whole log; ours are lines 701–1000.
    assert.ok(sources.includes('Mac_2k.log lines 701–850') && sources.includes('Mac_2k.log lines 851–1000'));
    assert.doesNotMatch(others, /logText\('Mac'\)|'logs', 'Mac'/);
    const macSlices = [...others.matchAll(/labelledLines\('Mac'\)(\.slice\((\d+), (\d+)\))?/g)];
    for (const slice of macSlices) assert.ok(slice[1] !== undefined && (Number(slice[3]) <= 700 || Number(slice[2]) >= 1000), slice[0]);
    // Test reports, trajectories and Claude Code sessions: named nowhere in the other sets.
    for (const piece of ['junit4-complete', 'junit-complete.md', 'phpunit/phpunit.xml', '\'phpunit\', \'phpunit.xml\'', 'phpunit-test-results.md', 'django__django-13112', 'django__django-15098', 'django__django-13821', 'django__django-11999', 'claude-code', 'spotter']) {
      assert.ok(!others.includes(piece), `another set names ${piece}`);
    }
    // Nor picked by a rule there: the largest submission, the longest trajectory, whole files printed with cat.
    let largest = { name: '', size: -1 };
    let longest = { name: '', size: -1 };
    for (const name of trajectoryNames()) {
      const trajectory = loadTrajectory(name);
      if (trajectory.submission.length > largest.size) largest = { name, size: trajectory.submission.length };
      if (trajectory.messages.length > longest.size) longest = { name, size: trajectory.messages.length };
    }
    for (const instance of ['django__django-13112', 'django__django-15098', 'django__django-13821', 'django__django-11999']) assert.ok(instance !== largest.name && instance !== longest.name, instance);
    for (const workload of workloads()) assert.doesNotMatch(workload.source, /`(?:cd \/testbed && )?cat \S+\.py`/, workload.id);
    // MCP tools: none of ours is in the own set's 100 KB manifest.
    const manifest = JSON.stringify(dataWorkloads().find((workload) => workload.id === 'mcp-manifest-100kb')!.body);
    assert.ok(manifest.includes('\\"name\\": \\"add_comment_to_pending_review\\"'), 'the own manifest is not where the check looks');
    for (const tool of mcpToolsLeftOut().flat()) assert.ok(!manifest.includes(`\\"name\\": \\"${String(tool.name)}\\"`), String(tool.name));
    // Cranfield: not the own set's two-answer queries, not held-out-1's candidates (2–3 answers, after 14), not held-out-2's.
    const heldOutTwoQueries = [...others.matchAll(/cranfieldChunksText\((\d+)\)/g)].map((match) => Number(match[1]));
    for (const query of [13, 41]) {
      const answers = [...(judgements().get(query)?.values() ?? [])].filter((code) => code <= 2).length;
      assert.ok(!twoAnswerQueries(3).includes(query) && !heldOutTwoQueries.includes(query) && !(answers >= 2 && answers <= 3 && query > 14), `query ${query}`);
    }
  });
});
