import * as assert from 'node:assert/strict';
import { extractMentions } from './mentions';

describe('extractMentions', () => {
  it('keeps code-shaped names and names written as code, not plain English words', () => {
    const mentions = extractMentions('The `save` step calls load() and self.flush, then parse_rows and getValue; we save time. Table is fine.');
    for (const name of ['save', 'load', 'flush', 'parse_rows', 'getValue', 'Table']) assert.ok(mentions.identifiers.has(name), name);
    for (const word of ['step', 'calls', 'then', 'time', 'fine']) assert.ok(!mentions.identifiers.has(word), word);
  });

  it('reads stack frames, path:line references, diff hunks and sed -i addresses', () => {
    const text = [
      '  File "/testbed/pkg/mod.py", line 42, in run',
      'src/app.ts:17:5 - error TS2322',
      '--- a/pkg/util.py',
      '+++ b/pkg/util.py',
      '@@ -10,3 +10,4 @@ def helper():',
      "sed -i '120,125d' pkg/core.py",
    ].join('\n');
    assert.deepEqual(extractMentions(text).locations, [
      { path: '/testbed/pkg/mod.py', first: 42, last: 42 },
      { path: 'src/app.ts', first: 17, last: 17 },
      { path: 'pkg/core.py', first: 120, last: 125 },
      { path: 'pkg/util.py', first: 10, last: 12 },
      { path: 'pkg/util.py', first: 10, last: 13 },
    ]);
  });

  it('collects quoted code lines and unescaped sed patterns', () => {
    const mentions = extractMentions("-        cright[-right.shape[0]:, -right.shape[1]:] = 1\nsed -i 's/return self\\.total \\* 2/return self.total/' a.py\nok");
    assert.ok(mentions.quotedLines.has('cright[-right.shape[0]:, -right.shape[1]:] = 1'));
    assert.ok(!mentions.quotedLines.has('ok'));
    assert.deepEqual(mentions.fragments, ['return self.total * 2']);
  });
});
