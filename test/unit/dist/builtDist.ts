/**
 * The built bundles, for tests that run them the way a user does: `dist/` is rebuilt when it
 * is missing or older than the sources, then copied alone to a temporary folder that no
 * node_modules is reachable from, so whatever a bundle loads must come from that copy.
 */
import { execFile, execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

export const PROJECT_ROOT = path.resolve(__dirname, '..', '..', '..');
const DIST = path.join(PROJECT_ROOT, 'dist');
const BUNDLES = ['cli.js', 'extension.js', 'ocr-worker.js', 'gateway-worker.js'];

/** Newest modification time of the files a build reads (sources, build script, lock file). */
function newestInput(): number {
  let newest = 0;
  const visit = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) visit(full);
      else if (!entry.name.endsWith('.test.ts')) newest = Math.max(newest, fs.statSync(full).mtimeMs);
    }
  };
  visit(path.join(PROJECT_ROOT, 'src'));
  for (const file of ['esbuild.mjs', 'package-lock.json']) {
    const full = path.join(PROJECT_ROOT, file);
    if (fs.existsSync(full)) newest = Math.max(newest, fs.statSync(full).mtimeMs);
  }
  return newest;
}

/** Builds dist/ with `node esbuild.mjs` unless every bundle is there and newer than its inputs. */
export function ensureBuilt(): void {
  const bundles = BUNDLES.map((name) => path.join(DIST, name));
  const fresh = bundles.every((bundle) => fs.existsSync(bundle)) && Math.min(...bundles.map((bundle) => fs.statSync(bundle).mtimeMs)) >= newestInput();
  if (!fresh) execFileSync(process.execPath, ['esbuild.mjs'], { cwd: PROJECT_ROOT, stdio: 'pipe', timeout: 170_000 });
}

/** Copies dist/ (without source maps) into a new temporary folder and returns the copy's dist/. */
export function copyDistAlone(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-dist-'));
  const copy = path.join(home, 'dist');
  fs.cpSync(DIST, copy, { recursive: true, filter: (source) => !source.endsWith('.map') });
  return copy;
}

/**
 * The node_modules folders Node's resolution would search from `folder` (none, for a clean
 * copy). NODE_PATH does not count: the bundles run without it.
 */
export function reachableNodeModules(folder: string): string[] {
  const found: string[] = [];
  for (let current = path.resolve(folder); ; current = path.dirname(current)) {
    if (fs.existsSync(path.join(current, 'node_modules'))) found.push(path.join(current, 'node_modules'));
    if (path.dirname(current) === current) break;
  }
  return found;
}

export interface BundleRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node [...nodeFlags] <dist>/cli.js ...args` from the copy's folder with `stdin`, in a
 * child process whose environment has no NODE_PATH and no loader options.
 */
export function runBundledCli(dist: string, args: readonly string[], stdin = '', nodeFlags: readonly string[] = []): Promise<BundleRun> {
  return runNode(dist, [...nodeFlags, path.join(dist, 'cli.js'), ...args], stdin);
}

/** Runs `node ...args` from the copy's folder, like {@link runBundledCli}. */
export function runNode(dist: string, args: readonly string[], stdin = ''): Promise<BundleRun> {
  const environment = { ...process.env };
  delete environment.NODE_PATH;
  delete environment.NODE_OPTIONS;
  return new Promise((resolve, reject) => {
    const child = execFile(process.execPath, args, { cwd: path.dirname(dist), env: environment, maxBuffer: 64 * 1024 * 1024, timeout: 90_000 }, (error, stdout, stderr) => {
      if (error && typeof error.code !== 'number') reject(error);
      else resolve({ code: error ? Number(error.code) : 0, stdout, stderr });
    });
    child.stdin?.end(stdin);
  });
}
