import { strict as assert } from 'node:assert';
import { failureEventsOf } from './logFailureEvents';

describe('failureEventsOf: a log digest cut to what reports a problem', () => {
  const logcat = [
    '03-17 16:13:38.811  1702  2395 D WindowManager: printFreezingDisplayLogs opening app [×12, 16:13:38.811–16:14:02.100]',
    '03-17 16:13:38.928  2227  2227 I StackScrollAlgorithm: updateClipping isOverlap:false [×39, 16:13:38.928–16:16:07.188]',
    '03-17 16:13:46.764  2227  2794 E KeyguardUpdateMonitor: isSimPinSecure mSimDatas is null or empty',
    '03-17 16:13:47.150  1702 17633 W ActivityManager: applyOptionsLocked: Unknown animationType=0 [×2, 16:13:47.150–16:16:06.872]',
    '03-17 16:14:01.001  1702  1702 I PowerManager: retrying after error: none pending',
    '03-17 16:15:00.000  1702  1702 V Choreographer: frame time 16ms [×400, 16:15:00.000–16:16:00.000]',
  ].join('\n');

  it('keeps warnings and errors in order with their counts, says how many quieter lines went, and goes by the level a line names', () => {
    const cut = failureEventsOf(logcat)!;
    const lines = cut.text.split('\n');
    assert.deepEqual(lines.slice(0, 2), [logcat.split('\n')[2], logcat.split('\n')[3]]);
    assert.equal(cut.kept, 2);
    assert.equal(cut.quiet, 4, 'the I line that mentions "error" is quiet: its level says so');
    assert.match(lines[2]!, /4 quieter event line\(s\)/);
  });

  it('keeps a line that names no level when it reports a problem in words', () => {
    const quiet = Array.from({ length: 6 }, (_, index) => `[10.30 16:49:0${index}] chrome.exe - proxy${index}.example.org:5070 open through proxy proxy${index}.example.org:5070 HTTPS [×300]`);
    const failure = '[10.30 17:11:34] YodaoDict.exe - ss.example.com:80 error : A connection request was canceled before the completion. [×41]';
    assert.equal(failureEventsOf([...quiet, failure].join('\n'))?.text.split('\n')[0], failure);
  });

  it('reads a problem named inside an identifier (camelCase, snake_case), not a word that merely contains one', () => {
    const quiet = Array.from({ length: 6 }, (_, index) => `20171223-22:15:0${index}|Step_LSC|30002312|onStandStepChanged ${3500 + index} [×80]`);
    const camel = '20171223-22:19:58|HiH_HiBroadcastUtil|30002312|sendSyncFailedBroadcast [×3]';
    const snake = '20171223-22:20:01|Uploader|30002312|on_upload_error retry=2';
    const innocent = '20171223-22:20:02|Clock|30002312|terrorBirdsAhead setting=off';
    const cut = failureEventsOf([...quiet, camel, snake, innocent].join('\n'))!;
    assert.deepEqual(cut.text.split('\n').slice(0, 2), [camel, snake]);
    assert.equal(cut.kept, 2);
  });

  it('leaves a digest alone when nothing in it reports a problem, or when problems are most of it', () => {
    assert.equal(failureEventsOf(logcat.split('\n').filter((line) => / [DIV] /.test(line)).join('\n')), undefined);
    assert.equal(failureEventsOf(logcat.split('\n').slice(2, 5).join('\n')), undefined);
  });
});
