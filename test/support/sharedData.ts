/**
 * Paths into the real test data (public material nobody here wrote, kept outside the
 * repository), trajectory loading, and the one way a test says it needs that data.
 *
 * Where the data is: `HERALD_TEST_DATA` (or its older name `HERALD_SHARED_DATA`), else
 * `../shared/data` beside the checkout. A clone without it still passes: every test that reads
 * it goes through {@link itWithData}, {@link describeWithData} or {@link skipWithoutData},
 * which skip it and count it, and the run ends with one line saying how many were skipped and
 * how to point the tests at the data (`test/support/dataSkipSummary.ts`). Under CI
 * (`HERALD_REQUIRE_TEST_DATA=1`, set by `.ci/run`) a missing data folder fails those tests
 * instead, so CI never passes with data tests skipped.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

/** Where the data is expected when no variable names it: `../shared/data` beside the checkout. */
export const DEFAULT_SHARED_DATA = path.resolve(__dirname, '..', '..', '..', 'shared', 'data');

export const SHARED_DATA = process.env.HERALD_TEST_DATA || process.env.HERALD_SHARED_DATA || DEFAULT_SHARED_DATA;

/** Set (to anything but "" or "0") where every data test must run: a skip becomes a failure. */
export function dataRequired(): boolean {
  const value = process.env.HERALD_REQUIRE_TEST_DATA;
  return value !== undefined && value !== '' && value !== '0';
}

interface SkipRecord {
  /** Tests skipped because the data is absent (a skipped suite counts each of its tests). */
  skipped: number;
  /** Whether any check found the data absent (also set by a bare {@link hasSharedData} call). */
  absent: boolean;
}

// On globalThis, not in a module variable: the summary plugin and the test files may load
// this module through different loaders (ESM and CommonJS), which would give two copies.
const RECORD_KEY = Symbol.for('herald.test.sharedDataSkips');

export function skipRecord(): SkipRecord {
  const holder = globalThis as { [RECORD_KEY]?: SkipRecord };
  return (holder[RECORD_KEY] ??= { skipped: 0, absent: false });
}

function missingDataError(): Error {
  return new Error(`Herald: the real test data is required (HERALD_REQUIRE_TEST_DATA is set) but ${SHARED_DATA} does not exist; set HERALD_TEST_DATA=<dir> or put the data at ../shared/data beside the checkout (README, "Test data").`);
}

/**
 * Whether the data folder exists. Under `HERALD_REQUIRE_TEST_DATA` a missing folder throws,
 * so a test that gates itself on this (rather than through the helpers below) fails CI too.
 */
export function hasSharedData(): boolean {
  if (fs.existsSync(SHARED_DATA)) return true;
  if (dataRequired()) throw missingDataError();
  skipRecord().absent = true;
  return false;
}

/**
 * Call first in a test, or in a `before` hook, that reads the data: without the data it skips
 * that test (or, from a hook, every test of the suite) and counts it for the summary line.
 */
export function skipWithoutData(context: Mocha.Context): void {
  if (hasSharedData()) return;
  const runnable = context.test;
  // Mocha sets `type` on every runnable ("test" or "hook"); its typings leave it out.
  const isHook = runnable !== undefined && (runnable as { type?: string }).type === 'hook';
  skipRecord().skipped += isHook ? (runnable.parent?.total() ?? 1) : 1;
  context.skip();
}

/** `it` for a test that reads the data: skipped and counted when the data is absent. */
export function itWithData(title: string, fn: (this: Mocha.Context) => unknown): Mocha.Test {
  return it(title, async function () {
    skipWithoutData(this);
    await fn.call(this);
  });
}

/** `describe` whose tests all read the data: the whole suite is skipped and counted without it. */
export function describeWithData(title: string, fn: (this: Mocha.Suite) => void): Mocha.Suite {
  return describe(title, function () {
    before(function () {
      skipWithoutData(this);
    });
    fn.call(this);
  });
}

export function sharedPath(...parts: string[]): string {
  return path.join(SHARED_DATA, ...parts);
}

export interface Trajectory {
  readonly instance: string;
  /** OpenAI-style messages as the agent sent them (role, content, and extra fields). */
  readonly messages: { role: string; content: string; [key: string]: unknown }[];
  /** The final diff the agent submitted. */
  readonly submission: string;
}

export function trajectoryNames(): string[] {
  return fs.readdirSync(sharedPath('trajectories')).filter((name) => !name.startsWith('.')).sort();
}

export function loadTrajectory(instance: string): Trajectory {
  const file = sharedPath('trajectories', instance, `${instance}.traj.json`);
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { messages: Trajectory['messages']; info?: { submission?: string } };
  return { instance, messages: data.messages, submission: data.info?.submission ?? '' };
}

/**
 * Every request the agent sent, in order: the conversation up to (not including) each
 * assistant message, as an OpenAI chat completions body.
 */
export function turnRequests(trajectory: Trajectory, model = 'gpt-4o'): { model: string; messages: unknown[] }[] {
  const requests: { model: string; messages: unknown[] }[] = [];
  trajectory.messages.forEach((message, index) => {
    if (message.role === 'assistant' && index > 0) requests.push({ model, messages: trajectory.messages.slice(0, index) });
  });
  return requests;
}
