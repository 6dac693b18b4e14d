/**
 * The README's install step, run as a user runs it: `npm install -g .` in the built checkout
 * (here into a temporary prefix, so the machine's global folder is left alone) puts `herald` on
 * the PATH, and `herald …` then works from any folder.
 */
import { strict as assert } from 'node:assert';
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { ensureBuilt, PROJECT_ROOT } from './builtDist';

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

describe('herald installed with npm install -g .', function () {
  let prefix = '';
  let elsewhere = '';
  let environment: NodeJS.ProcessEnv = {};

  before(function () {
    this.timeout(240_000);
    ensureBuilt();
    prefix = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-prefix-'));
    elsewhere = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-cwd-'));
    // --offline: installing a folder fetches nothing.
    execFileSync('npm', ['install', '-g', '.', '--prefix', prefix, '--offline', '--no-audit', '--no-fund'], { cwd: PROJECT_ROOT, stdio: 'pipe', timeout: 120_000 });
    environment = { ...process.env, PATH: `${path.join(prefix, 'bin')}${path.delimiter}${process.env.PATH ?? ''}`, HERALD_STASH_DIR: path.join(elsewhere, 'stash') };
    delete environment.NODE_OPTIONS;
    delete environment.NODE_PATH;
  });

  after(() => {
    for (const folder of [prefix, elsewhere]) if (folder) fs.rmSync(folder, { recursive: true, force: true });
  });

  /** `herald …` by name, resolved through PATH, from a folder outside the checkout. */
  function herald(args: readonly string[]): Promise<Run> {
    return new Promise((resolve, reject) => {
      execFile('herald', args, { cwd: elsewhere, env: environment, timeout: 60_000 }, (error, stdout, stderr) => {
        if (error && typeof error.code !== 'number') reject(error);
        else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
      });
    });
  }

  it('puts herald on the PATH', () => {
    assert.ok(fs.existsSync(path.join(prefix, 'bin', 'herald')), 'no bin/herald in the prefix');
  });

  it('herald serve --help and -h print the gateway\'s usage and options', async function () {
    this.timeout(60_000);
    for (const flag of ['--help', '-h']) {
      const run = await herald(['serve', flag]);
      assert.equal(run.code, 0, run.stderr);
      assert.match(run.stdout, /^Usage: herald serve \[options\]/);
      assert.match(run.stdout, /--openai-base-url URL/);
    }
  });

  it('herald --help lists the commands; herald demo runs from any folder', async function () {
    this.timeout(60_000);
    const help = await herald(['--help']);
    assert.equal(help.code, 0);
    assert.match(help.stdout, /herald serve \[options\]/);
    const demo = await herald(['demo', '--json']);
    assert.equal(demo.code, 0, demo.stderr);
    const report = JSON.parse(demo.stdout) as { tokensBefore: number; tokensAfter: number; lossless: boolean };
    assert.ok(report.tokensAfter < report.tokensBefore);
    assert.equal(report.lossless, true);
  });
});
