import * as assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const FIXTURE = path.join('test', 'unit', 'support', 'dataSkip.fixture.ts');

/** Runs the fixture spec in a child mocha (the project's .mocharc.json, so its summary plugin) with `env` added. */
function runFixture(env: Record<string, string>): { status: number | null; stdout: string } {
  const clean = { ...process.env };
  delete clean.HERALD_TEST_DATA;
  delete clean.HERALD_SHARED_DATA;
  delete clean.HERALD_REQUIRE_TEST_DATA;
  const result = spawnSync(process.execPath, [path.join(ROOT, 'node_modules', 'mocha', 'bin', 'mocha.js'), FIXTURE], { cwd: ROOT, env: { ...clean, ...env }, encoding: 'utf8' });
  return { status: result.status, stdout: result.stdout };
}

describe('tests that read the real test data', function () {
  this.timeout(60_000);
  const missing = path.join(os.tmpdir(), 'herald-no-such-data');

  it('skip without the data, and the run ends green with one summary line naming the count and how to point at the data', () => {
    const run = runFixture({ HERALD_TEST_DATA: missing });
    assert.equal(run.status, 0, run.stdout);
    assert.match(run.stdout, /1 passing/);
    assert.match(run.stdout, /4 pending/);
    const lines = run.stdout.trimEnd().split('\n');
    const summary = lines[lines.length - 1]!;
    assert.match(summary, /^Herald: 4 tests skipped: they read the real test data/);
    assert.ok(summary.includes(missing), summary);
    assert.match(summary, /HERALD_TEST_DATA=<dir>/);
    assert.equal(lines.filter((line) => line.startsWith('Herald: ')).length, 1);
  });

  it('fail instead of skipping when HERALD_REQUIRE_TEST_DATA is set (as CI sets it)', () => {
    const run = runFixture({ HERALD_TEST_DATA: missing, HERALD_REQUIRE_TEST_DATA: '1' });
    assert.notEqual(run.status, 0);
    // The two tests and the suite's before-all hook (which stands for both of its tests).
    assert.match(run.stdout, /3 failing/);
    assert.doesNotMatch(run.stdout, /pending/);
    assert.match(run.stdout, /Herald: the real test data is required/);
  });

  it('run when the data is there, under either variable, with no summary line', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-data-'));
    try {
      for (const name of ['HERALD_TEST_DATA', 'HERALD_SHARED_DATA']) {
        const run = runFixture({ [name]: folder, HERALD_REQUIRE_TEST_DATA: '1' });
        assert.equal(run.status, 0, run.stdout);
        assert.match(run.stdout, /5 passing/);
        assert.doesNotMatch(run.stdout, /pending|Herald: /);
      }
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });
});
