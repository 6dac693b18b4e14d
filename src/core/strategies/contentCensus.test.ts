import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { parseRequest, serializeRequest } from '../chat';
import { loadTrajectory, sharedPath, skipWithoutData, trajectoryNames, turnRequests } from '../../../test/support/sharedData';
import { createContentCensus } from './contentCensus';
import { classifyShape, type ShapeClass } from './signals/shapeClass';
import { pipelineOf, toolCallingTurns } from '../../../test/support/agentFixtures';

const BASH = /```bash\n([\s\S]*?)\n```/;

/** (command, output) pairs of successful commands in the first trajectories. */
function observations(count: number): { command: string; output: string }[] {
  const pairs: { command: string; output: string }[] = [];
  for (const name of trajectoryNames().slice(0, count)) {
    const messages = loadTrajectory(name).messages;
    messages.forEach((message, index) => {
      const command = message.role === 'assistant' ? BASH.exec(message.content)?.[1]?.trim() : undefined;
      const next = messages[index + 1];
      const output = next ? /<returncode>0<\/returncode>\n<output>\n([\s\S]*)\n<\/output>/.exec(next.content)?.[1] : undefined;
      if (command && output && output.length > 200) pairs.push({ command, output });
    });
  }
  return pairs;
}

describe('content_census', () => {
  it('classifies real material by shape', function () {
    skipWithoutData(this);
    const cases: [string, ShapeClass][] = [
      ...fs.readdirSync(sharedPath('logs')).map((system): [string, ShapeClass] => [sharedPath('logs', system, `${system}_2k.log`), 'log_lines']),
      [sharedPath('html', '001', 'source.html'), 'html_xml'],
      [sharedPath('test-reports', 'jest-junit.xml'), 'html_xml'],
      [sharedPath('test-reports', 'mocha-json.json'), 'json_object'],
      [sharedPath('json', 'github-api', 'create-file.json'), 'json_array'],
    ];
    for (const [file, expected] of cases) assert.equal(classifyShape(fs.readFileSync(file, 'utf8')), expected, file);
    assert.equal(classifyShape(loadTrajectory('astropy__astropy-12907').submission), 'unified_diff');
  });

  it('takes a share only past its threshold, wherever the matching lines fall', () => {
    const logLine = (second: number): string => `2024-05-01 10:00:${String(second).padStart(2, '0')} worker started`;
    const prose = 'the quick brown fox jumps over the lazy dog';
    // Log lines must be more than 0.6 of the head's lines: 3 of 5 is not, 4 of 6 is; first or last makes no difference.
    for (const lines of [[logLine(1), logLine(2), logLine(3), prose, prose], [prose, prose, logLine(1), logLine(2), logLine(3)]]) assert.notEqual(classifyShape(lines.join('\n')), 'log_lines');
    for (const lines of [[logLine(1), logLine(2), logLine(3), logLine(4), prose, prose], [prose, prose, logLine(1), logLine(2), logLine(3), logLine(4)]]) assert.equal(classifyShape(lines.join('\n')), 'log_lines');
  });

  it('reads a table from its first 20 lines: the same count of one separator, two or more a line', () => {
    const rows = (separator: string, count: number): string[] => Array.from({ length: count }, (_, row) => ['id', 'name', 'size', 'owner'].map((column) => `${column}${row}`).join(separator));
    for (const separator of [',', '\t', '|']) assert.equal(classifyShape(rows(separator, 12).join('\n')), 'csv_table', JSON.stringify(separator));
    // A row past the twentieth is not read; one of the first twenty with another count is no table.
    assert.equal(classifyShape([...rows(',', 20), 'x,y'].join('\n')), 'csv_table');
    const ragged = rows(',', 12);
    ragged[7] = 'id7,name7,size7';
    assert.notEqual(classifyShape(ragged.join('\n')), 'csv_table');
    // One separator a line is a pair, not a table.
    assert.notEqual(classifyShape(Array.from({ length: 12 }, (_, row) => `key${row},value${row}`).join('\n')), 'csv_table');
  });

  it('classifies real agent command output by what the command does (at least 80 % per kind)', function () {
    skipWithoutData(this);
    const kinds: [RegExp, ShapeClass][] = [
      [/^(?:cat|sed -n '?\d+,\d+p'?|head -n? ?\d*) \S+\.py$/, 'source_code'],
      [/^(?:python -m )?pytest\b/, 'build_test_log'],
      [/^grep -r?n\S* /, 'search_grep'],
      [/^(?:ls -R|find \. -name)/, 'file_listing'],
    ];
    const pairs = observations(40);
    for (const [command, expected] of kinds) {
      const matching = pairs.filter((pair) => command.test(pair.command));
      const right = matching.filter((pair) => classifyShape(pair.output) === expected).length;
      assert.ok(matching.length >= 5, `${expected}: enough samples (${matching.length})`);
      assert.ok(right / matching.length >= 0.8, `${expected}: ${right} of ${matching.length}`);
    }
  });

  for (const format of ['openai', 'anthropic', 'pasted'] as const) {
    it(`counts tool-output segments by class, records no content, and leaves the request unchanged (${format})`, async function () {
      skipWithoutData(this);
      const trajectory = loadTrajectory('astropy__astropy-12907');
      const bodies = (format === 'pasted' ? turnRequests(trajectory) : toolCallingTurns(trajectory, format)) as Record<string, unknown>[];
      const { pipeline } = pipelineOf([createContentCensus()]);
      let details: Readonly<Record<string, string | number | boolean>> = {};
      for (const body of bodies) {
        const result = await pipeline.run(parseRequest(body));
        assert.deepEqual(serializeRequest(result.request), body);
        details = result.decisions[0]!.details ?? {};
      }
      const perClass = Object.entries(details).filter(([key]) => key.startsWith('class_')).reduce((sum, [, value]) => sum + Number(value), 0);
      assert.equal(perClass, details.segments);
      assert.ok(Number(details.segments) >= 10);
      const session = Object.entries(details).filter(([key]) => key.startsWith('session_')).reduce((sum, [, value]) => sum + Number(value), 0);
      assert.equal(session, details.segments, 'session totals count each segment once, not once per turn');
      for (const [key, value] of Object.entries(details)) {
        assert.match(key, /^(segments|class_[a-z_]+|session_[a-z_]+)$/);
        assert.equal(typeof value, 'number', 'only counts, never text');
      }
    });
  }

  it('classifies long outputs as classifyShape does, whole JSON included, when their heads are alike', async () => {
    // Past 4,096 characters an output is remembered by its head unless it opens like JSON (then
    // the whole text decides): with a one-character head, a valid and a broken JSON array share
    // their head but not their class, and two logs with one head share theirs.
    const valid = JSON.stringify(Array.from({ length: 800 }, (_, index) => ({ index })));
    const broken = `${valid.slice(0, -1)},`;
    const logHead = 'building the project\n';
    const logs = [`${logHead}${'compiled module\n'.repeat(400)}`, `${logHead}${'Traceback (most recent call last)\n'.repeat(400)}`];
    const texts = [valid, broken, ...logs];
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'go' },
        ...texts.flatMap((text, index) => [
          { role: 'assistant', content: null, tool_calls: [{ id: `c${index}`, type: 'function', function: { name: 'run', arguments: '{}' } }] },
          { role: 'tool', tool_call_id: `c${index}`, content: text },
        ]),
      ],
    };
    for (const headChars of [1, 2000]) {
      const { pipeline } = pipelineOf([createContentCensus()], { content_census: { headChars } });
      const details = (await pipeline.run(parseRequest(body))).decisions[0]!.details ?? {};
      const expected: Record<string, number> = {};
      for (const text of texts) expected[`class_${classifyShape(text, headChars)}`] = (expected[`class_${classifyShape(text, headChars)}`] ?? 0) + 1;
      const classes = Object.fromEntries(Object.entries(details).filter(([key]) => key.startsWith('class_')));
      assert.deepEqual(classes, expected, `head ${headChars}`);
    }
    assert.notEqual(classifyShape(valid, 1), classifyShape(broken, 1));
  });
});
