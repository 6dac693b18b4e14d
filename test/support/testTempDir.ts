/**
 * Mocha plugin (`.mocharc.json` "require"): every temporary folder a test makes goes under one
 * folder for the run, removed when the run ends, so a run leaves nothing behind in the system's
 * temporary folder. `os.tmpdir()` reads TMPDIR on each call, and child processes the tests start
 * inherit it.
 */
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

let runFolder: string | undefined;
let previous: string | undefined;

export function mochaGlobalSetup(): void {
  previous = process.env.TMPDIR;
  runFolder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-test-'));
  process.env.TMPDIR = runFolder;
}

export function mochaGlobalTeardown(): void {
  if (runFolder === undefined) return;
  if (previous === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = previous;
  fs.rmSync(runFolder, { recursive: true, force: true });
  runFolder = undefined;
}
