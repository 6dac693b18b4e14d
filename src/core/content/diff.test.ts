import * as assert from 'node:assert/strict';
import { itWithData, loadTrajectory, trajectoryNames } from '../../../test/support/sharedData';
import { detectContentFormat } from './detect';
import { cleanDiff } from './diff';

describe('cleanDiff', () => {
  itWithData('keeps every header and changed line of the real submitted diffs', function () {
    this.timeout(20_000);
    let checked = 0;
    for (const name of trajectoryNames()) {
      const diff = loadTrajectory(name).submission;
      if (diff.trim() === '') continue;
      assert.equal(detectContentFormat(diff), 'diff', `${name} detected`);
      const result = cleanDiff(diff);
      const kept = result.text.split('\n');
      let position = 0;
      // Headers and changed lines appear in the cleaned diff, in the same order.
      for (const line of diff.split('\n')) {
        if (!/^(?:diff --git|index |--- |\+\+\+ |@@|[+-])/.test(line)) continue;
        const found = kept.indexOf(line, position);
        assert.ok(found !== -1, `${name}: "${line}" kept in order`);
        position = found + 1;
      }
      checked++;
    }
    assert.ok(checked >= 50, `${checked} diffs checked`);
  });

  it('trims a long run of unchanged context between changes', () => {
    const context = Array.from({ length: 20 }, (_, index) => ` line ${index}`);
    const diff = ['diff --git a/x.ts b/x.ts', '--- a/x.ts', '+++ b/x.ts', '@@ -1,24 +1,24 @@', ...context.slice(0, 2), '-old one', '+new one', ...context, '-old two', '+new two', ' tail'].join('\n');
    const result = cleanDiff(diff);
    assert.equal(result.text, ['diff --git a/x.ts b/x.ts', '--- a/x.ts', '+++ b/x.ts', '@@ -1,24 +1,24 @@', ' line 0', ' line 1', '-old one', '+new one', ' line 0', ' line 1', ' line 2', ' … 14 unchanged lines', ' line 17', ' line 18', ' line 19', '-old two', '+new two', ' tail'].join('\n'));
    assert.deepEqual(result.removed, ['14 unchanged context lines']);
  });

  it('leaves a diff with ordinary context alone', () => {
    const diff = 'diff --git a/a b/a\n--- a/a\n+++ b/a\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n';
    assert.equal(cleanDiff(diff).changed, false);
  });
});
