import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { findToolOutputs } from '../chat/toolOutput';
import { lineTemplate } from '../content/logTemplates';
import { findMarkers } from '../stash/marker';
import { itWithData, loadTrajectory, sharedPath, turnRequests } from '../../../test/support/sharedData';
import { replay } from '../../../test/support/replay';
import { createCommandDigest, routeOf } from './commandDigest';
import { assertNoPromptText, createRig, partTexts, runTurns, turnBodies } from '../../../test/support/strategyTestKit';

/** A pytest run: progress, 126 passes, two failures, the count line. */
const PYTEST = [
  '============================= test session starts ==============================',
  'platform linux -- Python 3.11.8, pytest-8.1.1, pluggy-1.4.0',
  'rootdir: /repo',
  'collected 128 items',
  '',
  ...Array.from({ length: 64 }, (_, index) => `tests/test_billing.py::test_case_${index} PASSED                              [ ${String(index).padStart(2)}%]`),
  'tests/test_auth.py::test_login_lockout FAILED                              [ 50%]',
  ...Array.from({ length: 62 }, (_, index) => `tests/test_api.py::test_route_${index} PASSED                               [ ${String(50 + Math.floor(index / 2)).padStart(2)}%]`),
  'tests/test_billing.py::test_refund_rounding FAILED                         [100%]',
  '',
  '=================================== FAILURES ===================================',
  '______________________________ test_login_lockout ______________________________',
  '',
  '    def test_login_lockout():',
  '>       assert locked is True',
  'E       assert False is True',
  '',
  'tests/test_auth.py:42: AssertionError',
  '_____________________________ test_refund_rounding _____________________________',
  '',
  '    def test_refund_rounding():',
  '>       assert refund(1000) == 1000',
  'E       assert 999 == 1000',
  '',
  'tests/test_billing.py:88: AssertionError',
  '=========================== short test summary info ============================',
  'FAILED tests/test_auth.py::test_login_lockout - assert False is True',
  'FAILED tests/test_billing.py::test_refund_rounding - assert 999 == 1000',
  '======================== 2 failed, 126 passed in 3.41s =========================',
].join('\n');

function bash(id: string, command: string): unknown {
  return { role: 'assistant', content: null, tool_calls: [{ id, type: 'function', function: { name: 'bash', arguments: JSON.stringify({ command }) } }] };
}

describe('command_digest', () => {
  it('digests a test run to its failures and count line, the fresh run on arrival, replayed byte for byte as history (OpenAI)', async () => {
    const messages = [
      { role: 'system', content: 'You fix bugs.' },
      { role: 'user', content: 'Make the suite green.' },
      bash('c1', 'pytest -v tests'),
      { role: 'tool', tool_call_id: 'c1', content: PYTEST },
      bash('c2', 'pytest -v tests'),
      { role: 'tool', tool_call_id: 'c2', content: PYTEST },
    ];
    const rig = createRig([createCommandDigest()]);
    const result = await runTurns(rig, turnBodies(messages));
    const digest = partTexts(result.request)[3]!;
    assert.ok(digest.length < PYTEST.length / 3, `digest of ${digest.length} chars`);
    for (const kept of ['test_login_lockout', 'assert False is True', 'tests/test_auth.py:42', 'test_refund_rounding', 'assert 999 == 1000', 'tests/test_billing.py:88', '2 failed, 126 passed in 3.41s']) {
      assert.ok(digest.includes(kept), `the digest keeps ${kept}`);
    }
    assert.ok(!digest.includes('test_route_17 PASSED'), 'passing tests are dropped');
    assert.match(digest, /\n\[herald: test run digest of \d+ lines: [^\]]+ · retrieve hr_[a-z2-7]{16}\]$/);
    assert.equal(await rig.stash.expandText(digest), PYTEST);
    // The fresh run is decided on arrival, with the same digest (same bytes, same handle).
    assert.equal(partTexts(result.request)[5], digest, 'the current turn is digested on arrival');
    assert.equal(await rig.stash.expandText(partTexts(result.request)[5]!), PYTEST);
    assertNoPromptText(result.decisions, [PYTEST]);
  });

  it('joins terminal output hard-wrapped at the terminal width before digesting: no failure line is cut', async () => {
    // What a terminal tool that reads its screen row by row returns: rows of 50 columns, each trimmed at its end.
    const wrapped = PYTEST.split('\n').flatMap((line) => (line.length <= 50 ? [line] : Array.from({ length: Math.ceil(line.length / 50) }, (_, row) => line.slice(row * 50, row * 50 + 50).trimEnd()))).join('\n');
    const failures = PYTEST.split('\n').filter((line) => line.startsWith('FAILED ') || line.startsWith('E '));
    assert.ok(failures.some((line) => line.length > 50) && failures.every((line) => line.length <= 50 || !wrapped.split('\n').includes(line)));
    const messages = [
      { role: 'user', content: 'Run the tests.' },
      { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run_in_terminal', arguments: JSON.stringify({ command: 'pytest -v tests' }) } }] },
      { role: 'tool', tool_call_id: 'c1', content: wrapped },
    ];
    const rig = createRig([createCommandDigest()]);
    const digest = partTexts((await rig.run({ model: 'gpt-4o', messages })).request)[2]!;
    for (const line of failures) assert.ok(digest.split('\n').includes(line), `whole in the digest: ${line}`);
    assert.equal(await rig.stash.expandText(digest), wrapped, 'the stash keeps the bytes as the terminal gave them');
  });

  it('a fresh log under a question about failures keeps its warnings and errors; under another question the whole digest; the original either way', async () => {
    const log = Array.from({ length: 400 }, (_, index) => {
      const time = `2024-05-01 10:${String(Math.floor(index / 60)).padStart(2, '0')}:${String(index % 60).padStart(2, '0')}`;
      if (index === 150) return `${time} ERROR db.pool: connection refused to replica-2 after 3 retries`;
      if (index === 310) return `${time} WARN cache.evict: eviction storm, 4120 keys dropped`;
      return `${time} INFO worker.${index % 7}: processed batch ${index} in ${20 + (index % 13)} ms`;
    }).join('\n');
    const ask = async (question: string) => {
      const messages = [
        { role: 'user', content: question },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run_in_terminal', arguments: JSON.stringify({ command: 'cat service.log' }) } }] },
        { role: 'tool', tool_call_id: 'c1', content: log },
      ];
      const rig = createRig([createCommandDigest()]);
      const result = await rig.run({ model: 'gpt-4o', messages });
      const digest = partTexts(result.request)[2]!;
      assert.equal(await rig.stash.expandText(digest), log, 'one retrieve away from the whole log');
      return { digest, details: result.decisions.find((decision) => decision.strategy === 'command_digest')?.details };
    };
    const failures = await ask('Why did the service fail this morning? Any errors?');
    assert.ok(failures.digest.includes('connection refused to replica-2') && failures.digest.includes('eviction storm'));
    assert.ok(!failures.digest.includes('INFO worker'), 'the quiet events are left out');
    assert.equal(failures.details?.logsToFailures, 1);
    const summary = await ask('Summarize what the workers did this morning.');
    assert.ok(summary.digest.includes('INFO worker'), 'another question keeps every event once');
    assert.equal(summary.details?.logsToFailures, undefined);
  });

  it('fresh grep hits under a question about a definition keep the definitions; under another question every hit; pasted with its prompt line too', async () => {
    const hits = Array.from({ length: 60 }, (_, index) => (index === 17 ? 'src/net/backoff.py:18:def retry_with_backoff(call, attempts=3):' : `src/net/client_${index % 6}.py:${index + 40}:        result = retry_with_backoff(lambda: fetch(url_${index}))`)).join('\n');
    const ask = async (question: string, pasted = false) => {
      const messages = pasted
        ? [{ role: 'user', content: `${question}\n\n$ grep -rn retry_with_backoff src\n${hits}` }]
        : [
            { role: 'user', content: question },
            { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'run_in_terminal', arguments: JSON.stringify({ command: 'grep -rn retry_with_backoff src' }) } }] },
            { role: 'tool', tool_call_id: 'c1', content: hits },
          ];
      const rig = createRig([createCommandDigest()]);
      const result = await rig.run({ model: 'gpt-4o', messages });
      const text = partTexts(result.request)[pasted ? 0 : 2]!;
      assert.equal(await rig.stash.expandText(text), messages[pasted ? 0 : 2]!.content, 'one retrieve away from every hit');
      return { text, details: result.decisions.find((decision) => decision.strategy === 'command_digest')?.details };
    };
    const defined = await ask('Where is retry_with_backoff defined, not just called?');
    assert.ok(defined.text.includes('src/net/backoff.py:18:def retry_with_backoff(call, attempts=3):\n'));
    assert.ok(!defined.text.includes('fetch(url_'), 'the uses are left behind the marker');
    assert.ok(defined.text.includes('the other hits, by file: src/net/client_0.py 10, '));
    assert.equal(defined.details?.grepToDefinitions, 1);
    const pasted = await ask('Where is retry_with_backoff defined, not just called?', true);
    assert.ok(pasted.text.startsWith('Where is retry_with_backoff defined, not just called?\n\n$ grep -rn retry_with_backoff src\n'), 'the prompt line stays the user\'s');
    assert.ok(pasted.text.includes('18:def retry_with_backoff(call, attempts=3):') && !pasted.text.includes('fetch(url_'));
    const uses = await ask('How many callers does retry_with_backoff have?');
    assert.ok(uses.text.includes('fetch(url_'), 'another question keeps every distinct hit');
    assert.equal(uses.details?.grepToDefinitions, undefined);
  });

  it('routes by the command: a grep whose output is not hits is left alone; without a command, by shape', () => {
    const notHits = Array.from({ length: 30 }, (_, index) => `grep: src/module_${index}: Is a directory`).join('\n');
    assert.equal(routeOf({ text: notHits, command: 'grep -r "refund" src' }), undefined);
    const hits = Array.from({ length: 30 }, (_, index) => `src/billing/module_${index % 3}.py:${index + 10}:    total = refund(amount)`).join('\n');
    assert.equal(routeOf({ text: hits, command: 'grep -rn "refund" src' }), 'grep');
    assert.equal(routeOf({ text: hits }), 'grep');
    assert.equal(routeOf({ text: PYTEST }), 'test-output');
    assert.equal(routeOf({ text: fs.readFileSync(`${__dirname}/../stash/stash.ts`, 'utf8'), command: 'cat src/core/stash/stash.ts' }), undefined);
  });

  itWithData('keeps every failure a real go test report lists (Anthropic), digested once it is history', async () => {
    const report = fs.readFileSync(sharedPath('test-reports', 'golang-json.json'), 'utf8');
    const expected = fs.readFileSync(sharedPath('test-reports', 'expected', 'golang-json.md'), 'utf8');
    const failures = [...expected.matchAll(/❌ (\S+)/g)].map((match) => match[1]!).filter((name) => !name.startsWith('<'));
    assert.ok(failures.length >= 5);
    const messages = [
      { role: 'user', content: 'Run the Go tests.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'bash', input: { command: 'go test -json ./...' } }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: report }] },
      { role: 'assistant', content: [{ type: 'text', text: 'Six tests fail.' }] },
      { role: 'user', content: 'Fix the first one.' },
    ];
    const rig = createRig([createCommandDigest()]);
    const result = await runTurns(rig, turnBodies(messages, { model: 'claude-sonnet-4', system: 'You fix Go code.', max_tokens: 500 }));
    const digest = partTexts(result.request)[3]!;
    assert.ok(findMarkers(digest).length === 1 && digest.length < report.length / 4);
    for (const name of failures) assert.ok(digest.includes(name), `failure ${name} survives`);
    assert.equal(await rig.stash.expandText(digest), report);
  });

  itWithData('folds a pasted real log by shape and buckets grep hits by file, keeping every error line and path', async () => {
    const log = fs.readFileSync(sharedPath('logs', 'Apache', 'Apache_2k.log'), 'utf8').split('\n').slice(0, 300).join('\n');
    const hits = Array.from({ length: 60 }, (_, index) => `src/billing/module_${index % 4}.py:${index + 10}:    total = refund(amount)`).join('\n');
    // A person pastes the log under a question: only the pasted block is tool output.
    const question = `Here it is:\n\n\`\`\`\n${log}\n\`\`\`\n\nWhat is error state 6?`;
    const messages = [
      { role: 'system', content: 'You are an operations assistant.' },
      { role: 'user', content: 'Why do the workers fail?' },
      { role: 'assistant', content: 'Show me the log.' },
      { role: 'user', content: question },
      bash('c1', 'grep -rn "refund" src'),
      { role: 'tool', tool_call_id: 'c1', content: hits },
      { role: 'assistant', content: 'Looking.' },
      { role: 'user', content: 'Well?' },
    ];
    const rig = createRig([createCommandDigest()]);
    const result = await runTurns(rig, turnBodies(messages));
    const pasted = partTexts(result.request)[3]!;
    assert.ok(pasted.startsWith('Here it is:\n\n```\n') && pasted.endsWith('\n```\n\nWhat is error state 6?'), 'the person\'s own words stay');
    assert.ok(pasted.length < log.length / 3);
    assert.match(pasted, /\[×\d+[,\]]/);
    for (const line of log.split('\n').filter((entry) => entry.includes('[error]'))) {
      const message = line.replace(/^\[[^\]]+\] /, '').trim();
      // Kept as it is, or folded into its kind's line with the value it differs in listed.
      const folded = lineTemplate(line).slots.every((value) => pasted.includes(`${value} ×`));
      assert.ok(pasted.includes(message) || folded, `error line kept: ${message}`);
    }
    const grep = partTexts(result.request)[5]!;
    for (let module = 0; module < 4; module++) assert.ok(grep.includes(`src/billing/module_${module}.py`));
    assert.match(findMarkers(grep)[0]!.summary, /^grep digest of 60 lines/);
    assert.equal(await rig.stash.expandText(pasted), question);
    assert.equal(await rig.stash.expandText(grep), hits);
  });

  itWithData('on a real trajectory: digests test runs keeping their count line, prefix-stable and lossless', async () => {
    const rig = createRig([createCommandDigest()]);
    const summary = await replay(rig.pipeline, rig.stash, turnRequests(loadTrajectory('astropy__astropy-13236')), rig.tokens);
    assert.equal(summary.prefixStableTurns, summary.turns.length);
    assert.equal(summary.losslessTurns, summary.turns.length);
    const digests = findToolOutputs(summary.turns[summary.turns.length - 1]!.optimized).filter((segment) => findMarkers(segment.text).some((marker) => marker.summary.startsWith('test run digest')));
    assert.ok(digests.length >= 1);
    for (const digest of digests) {
      // mini-swe-agent cuts long output into a head and a tail: only a part that had the count line must keep it.
      const original = (await rig.stash.retrieve(findMarkers(digest.text)[0]!.handle))!;
      const countLine = /^=+ .*\d+ (?:passed|failed).* =+$/m.exec(original);
      if (countLine) assert.ok(digest.text.includes(countLine[0]), 'the count line stays');
      for (const failed of original.match(/^FAILED \S+/gm) ?? []) assert.ok(digest.text.includes(failed), `${failed} stays`);
    }
  });
});
