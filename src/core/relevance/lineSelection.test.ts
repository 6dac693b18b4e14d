import * as assert from 'node:assert/strict';
import { asksAboutFailures, isErrorLine, isWarningLine } from './diagnosticLines';
import { droppedRuns, selectLines, type LineSelectionOptions } from './lineSelection';

const options: LineSelectionOptions = { leadingLines: 2, trailingLines: 1, contextLines: 1, keepRatio: 0, minKeptLines: 1, relativeScoreFloor: 0.5, minElidedRun: 3 };

describe('selectLines', () => {
  const lines = Array.from({ length: 30 }, (_, index) => `line ${index}`);

  it('keeps the leading and trailing lines, the best line with its context, and drops the rest in runs', () => {
    const scores = lines.map((_, index) => (index === 15 ? 0.9 : index === 22 ? 0.3 : 0));
    const { kept, hits } = selectLines(lines, scores, options);
    assert.equal(hits, 1);
    assert.deepEqual(kept.map((flag, index) => (flag ? index : -1)).filter((index) => index >= 0), [0, 1, 14, 15, 16, 29]);
    assert.deepEqual(droppedRuns(kept), [[2, 14], [17, 29]]);
  });

  it('measures the floor from the output\'s median line, so a scorer whose scores run flat does not let every line through', () => {
    const wide: LineSelectionOptions = { ...options, keepRatio: 1, relativeScoreFloor: 0.25 };
    // Every line a little like the question (0.5), three that stand out (0.9): only those three are selected.
    const flat = lines.map((_, index) => ([8, 15, 22].includes(index) ? 0.9 : 0.5));
    assert.equal(selectLines(lines, flat, wide).hits, 3);
    // Most lines unrelated (0): the floor is a quarter of the best, as when it was measured from zero.
    const sparse = lines.map((_, index) => (index === 15 ? 0.8 : index === 22 ? 0.21 : index === 9 ? 0.19 : 0));
    const { kept, hits } = selectLines(lines, sparse, wide);
    assert.equal(hits, 2);
    assert.ok(kept[22] && !kept[9]);
  });

  it('keeps short dropped runs, where a marker would cost as much as the lines', () => {
    const scores = lines.map((_, index) => (index === 5 ? 1 : 0));
    const { kept } = selectLines(lines, scores, options);
    // Lines 2 and 3 (a run of two) stay; 7…28 go.
    assert.deepEqual(droppedRuns(kept), [[7, 29]]);
  });

  it('always keeps error lines, and puts warnings first only for failure questions', () => {
    const mixed = [...lines];
    mixed[10] = '2015-10-18 18:06:26,139 ERROR [main] Error writing History Event';
    mixed[20] = '2015-10-18 18:06:27,001 WARN [main] Connection refused, retrying';
    const scores = mixed.map((_, index) => (index === 25 ? 1 : 0));
    const plain = selectLines(mixed, scores, options, false);
    assert.ok(plain.kept[10] && plain.kept[25] && !plain.kept[20]);
    assert.equal(plain.errors, 1);
    const failure = selectLines(mixed, scores, { ...options, minKeptLines: 1 }, true);
    assert.ok(failure.kept[10] && failure.kept[20], 'the warning outranks the best-scoring line for a failure question');
    assert.equal(failure.warningsKept, 1);
  });
});

describe('diagnostic lines', () => {
  it('tells errors from warnings across log formats', () => {
    assert.ok(isErrorLine('Traceback (most recent call last):'));
    assert.ok(isErrorLine('ValueError: invalid literal for int()'));
    assert.ok(isErrorLine('[Sun Dec 04 04:51:18 2005] [error] mod_jk child workerEnv in error state 6'));
    assert.ok(isErrorLine('src/main.rs:3:5: error[E0308]: mismatched types'));
    assert.ok(isErrorLine('03-17 16:13:38.811  1702  2395 E AndroidRuntime: FATAL EXCEPTION: main'));
    assert.ok(!isErrorLine('2015-10-18 18:01:47,978 INFO [main] Created MRAppMaster'));
    assert.ok(isWarningLine('2015-07-29 17:41:44,747 - WARN  [QuorumPeer] - Notification time out: 3200'));
    assert.ok(isWarningLine('Failed password for invalid user webmaster from 173.234.31.186 port 38926 ssh2'));
    assert.ok(!isWarningLine('Accepted password for fztu from 119.137.62.142 port 49116 ssh2'));
  });

  it('takes the bare verb "fail" and "fails" for a soft failure, as it takes "failed"', () => {
    // HealthApp (LogHub) reports its insert failures with the bare verb.
    assert.ok(isWarningLine('20171223-22:19:58:380|HiH_HiHealthDataInsertStore|30002312|saveHealthDetailData() saveOneDetailData fail hiHealthData = 1513958400000,type = 40003'));
    assert.ok(isWarningLine('retry 3 fails, giving up on the upload'));
    // Words that only start like it stay quiet.
    assert.ok(!isWarningLine('failover to the standby node completed'));
    assert.ok(!isWarningLine('loaded the failsafe defaults'));
  });

  it('takes a denial for a soft failure: "deny" as sandboxes and firewalls log it, as it takes "denied"', () => {
    assert.ok(isWarningLine('Jul  4 10:43:48 host kernel[0]: Sandbox: com.apple.Addres(34685) deny(1) network-outbound /private/var/run/mDNSResponder'));
    assert.ok(isWarningLine('Oct 10 13:55:36 gw ufw: action=DENY proto=TCP src=10.0.0.7 dst=10.0.0.1 dport=22'));
    assert.ok(isWarningLine('permission denied while opening /etc/shadow'));
    // Words that only start like it stay quiet.
    assert.ok(!isWarningLine('loaded the denylist from /etc/herald/denylist.conf'));
  });

  it('recognizes questions about failures', () => {
    assert.ok(asksAboutFailures('Why did the build fail?'));
    assert.ok(asksAboutFailures('any errors in there'));
    assert.ok(asksAboutFailures('what went wrong with the deploy'));
    assert.ok(!asksAboutFailures('list the users who logged in today'));
  });
});
