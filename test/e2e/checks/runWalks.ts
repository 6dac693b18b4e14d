/**
 * The walks on their own (the full `npm run test:e2e` runs them too):
 *   node --import tsx test/e2e/checks/runWalks.ts [editor] [model-path] [polish]
 * (the walks of editorWalks.ts when none is named).
 * Same environment as run.ts: HERALD_E2E_CACHE, HERALD_E2E_SKIP_PACKAGE=1, HERALD_E2E_KEEP=1.
 */
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { runEditorWalks } from './editorWalks';
import { runModelPathWalk } from './modelPathWalk';
import { runPolishWalk } from './polishWalk';

const ROOT = path.resolve(__dirname, '..', '..', '..');
const ARTIFACTS = path.join(__dirname, '..', 'artifacts', 'walks');
const started = Date.now();
const checks: { name: string; ok: boolean; detail: string }[] = [];

function log(message: string): void {
  console.log(`[walks ${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
}

async function main(): Promise<number> {
  fs.rmSync(ARTIFACTS, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });
  const setup = spawnSync('bash', [path.join(ROOT, 'scripts/e2e/setup.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (setup.status !== 0) throw new Error(`scripts/e2e/setup.sh failed with ${setup.status}`);
  const cache = setup.stdout.trim().split('\n').pop()!;
  const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const vsix = path.join(ROOT, `herald-${version}.vsix`);
  if (process.env.HERALD_E2E_SKIP_PACKAGE !== '1' || !fs.existsSync(vsix)) {
    const packaged = spawnSync('npm', ['run', 'package'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (packaged.status !== 0) throw new Error(`npm run package failed:\n${packaged.stdout.slice(-2000)}`);
  }
  const context = {
    node22: path.join(cache, 'node', 'bin', 'node'),
    entry: path.join(cache, 'code-server', 'out', 'node', 'entry.js'),
    vsix,
    artifacts: ARTIFACTS,
    log,
    check: (name: string, ok: boolean, detail = '') => {
      checks.push({ name, ok, detail });
      log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
    },
  };
  const named = process.argv.slice(2);
  const walks = named.length > 0 ? named : ['editor'];
  let timings = {};
  if (walks.includes('editor')) timings = await runEditorWalks(context);
  if (walks.includes('model-path')) await runModelPathWalk(context);
  if (walks.includes('polish')) await runPolishWalk(context);
  const failed = checks.filter((entry) => !entry.ok);
  fs.writeFileSync(path.join(ARTIFACTS, 'summary.json'), JSON.stringify({ ok: failed.length === 0, totalMs: Date.now() - started, timings, checks }, null, 2));
  log(`${checks.length - failed.length}/${checks.length} checks passed; first answers: ${JSON.stringify(timings)}`);
  return failed.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`ERROR ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exit(1);
  },
);
