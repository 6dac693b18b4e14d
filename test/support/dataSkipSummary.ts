/**
 * Mocha plugin (`.mocharc.json` "require"): after the reporter's own summary, one line saying
 * how many tests were skipped for want of the real test data, where that data comes from and
 * how to point the tests at it. Global teardown runs after the run's end event, so the line
 * is the last one printed.
 */
import { DEFAULT_SHARED_DATA, SHARED_DATA, skipRecord } from './sharedData';

/** The summary line, or undefined when nothing was skipped for want of data. */
export function dataSkipSummary(): string | undefined {
  const record = skipRecord();
  if (!record.absent && record.skipped === 0) return undefined;
  const count = record.skipped === 1 ? '1 test' : `${record.skipped} tests`;
  return `Herald: ${count} skipped: they read the real test data (public agent trajectories, logs, test reports, web pages and more; README "Test data" lists the sources), which is not at ${SHARED_DATA}. Put it at ${DEFAULT_SHARED_DATA} or run with HERALD_TEST_DATA=<dir>.`;
}

export function mochaGlobalTeardown(): void {
  const line = dataSkipSummary();
  if (line !== undefined) process.stdout.write(`\n${line}\n`);
}
