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
});
