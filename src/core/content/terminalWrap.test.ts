import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import { hasSharedData, loadTrajectory, sharedPath } from '../../../test/support/sharedData';
import { unwrapTerminal, wrapWidth } from './terminalWrap';

/** What a terminal's screen buffer read row by row gives: each line cut into rows of `width`, each row trimmed at its end. */
function hardWrap(text: string, width: number): string {
  return text.split('\n').flatMap((line) => {
    if (line.length <= width) return [line.trimEnd()];
    const rows: string[] = [];
    for (let start = 0; start < line.length; start += width) rows.push(line.slice(start, start + width).trimEnd());
    return rows;
  }).join('\n');
}

describe('terminal output unwrapping', () => {
  (hasSharedData() ? it : it.skip)('joins a real pytest run wrapped at 60 columns back into whole failure lines', () => {
    const content = loadTrajectory('astropy__astropy-13236').messages[41]!.content;
    const run = /<output>\n([\s\S]*)<\/output>/.exec(content)![1]!;
    const wrapped = hardWrap(run, 60);
    const failed = run.split('\n').filter((line) => line.startsWith('FAILED '));
    assert.ok(failed.length === 2 && failed.every((line) => line.length > 60), 'the failure lines are wider than the terminal');
    assert.ok(failed.every((line) => !wrapped.split('\n').includes(line)), 'wrapping cut them');
    assert.equal(wrapWidth(wrapped), 60);
    const unwrapped = unwrapTerminal(wrapped);
    assert.equal(unwrapped.width, 60);
    for (const line of failed) assert.ok(unwrapped.text.split('\n').includes(line), `whole again: ${line}`);
    // Every line the program printed comes back, but for a space a wrap fell on (the terminal trimmed it).
    const back = new Set(unwrapped.text.split('\n'));
    const lost = run.split('\n').filter((line) => !back.has(line.trimEnd()));
    assert.ok(lost.length <= run.split('\n').length * 0.02, `${lost.length} lines not restored`);
  });

  (hasSharedData() ? it : it.skip)('leaves text that was not wrapped as it is: real logs, and records all of one width', () => {
    for (const system of ['Apache', 'Hadoop', 'OpenSSH']) {
      const log = fs.readFileSync(sharedPath('logs', system, `${system}_2k.log`), 'utf8');
      assert.equal(wrapWidth(log), undefined, system);
      assert.equal(unwrapTerminal(log).text, log);
    }
    const records = Array.from({ length: 50 }, (_, index) => `${String(index).padStart(6, '0')}${'x'.repeat(74)}`).join('\n');
    assert.equal(unwrapTerminal(records).text, records, 'fixed-width records are data, not wrapping');
  });

  it('does not join a full-width row to an empty one (the line was exactly as wide as the terminal)', () => {
    const lines = [
      'FAILED tests/test_billing.py::test_refund_rounding - AssertionError: 999 != 1000 after the refund',
      'collected 128 items',
      'FAILED tests/test_auth.py::test_login_lockout - assert False is True (the account stays open)',
      '2 failed, 126 passed in 3.41s',
      'E   ValueError: the amount 12.5 cannot be refunded twice, see tests/test_billing.py line 88',
      '============================= exactly sixty columns wide ===',
      '',
      'done',
    ];
    assert.equal(lines[5]!.length, 60);
    const unwrapped = unwrapTerminal(hardWrap(lines.join('\n'), 60));
    assert.equal(unwrapped.width, 60);
    assert.deepEqual(unwrapped.text.split('\n'), lines);
  });
});
