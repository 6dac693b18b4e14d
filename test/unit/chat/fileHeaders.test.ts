import { strict as assert } from 'node:assert';
import { fencePath, headerLinePath, isFilePath } from '../../../src/core/chat/fileHeaders';

describe('file headers of pasted files', () => {
  it('reads the path from every header line form', () => {
    const forms: Record<string, string> = {
      'billing/totals.py:': 'billing/totals.py',
      'File: billing/totals.py': 'billing/totals.py',
      'Path: `totals.py`': 'totals.py',
      'billing/totals.py': 'billing/totals.py',
      '/home/me/billing/totals.py': '/home/me/billing/totals.py',
      '==> billing/totals.py <==': 'billing/totals.py',
      '=== billing/totals.py ===': 'billing/totals.py',
      '----- totals.py -----': 'totals.py',
      '### billing/totals.py': 'billing/totals.py',
      '## `totals.py`': 'totals.py',
      '**billing/totals.py**': 'billing/totals.py',
      '**`totals.py`:**': 'totals.py',
      '`billing/totals.py`:': 'billing/totals.py',
      'Here is `billing/totals.py`:': 'billing/totals.py',
      'And the test that fails (`tests/test_totals.py`):': 'tests/test_totals.py',
    };
    for (const [line, path] of Object.entries(forms)) assert.equal(headerLinePath(line, '```python'), path, line);
  });

  it('reads headings, quoted paths and sentences as headers only right above a fence', () => {
    for (const line of ['### billing/totals.py', '**billing/totals.py**', '`billing/totals.py`:', 'Here is `billing/totals.py`:']) {
      assert.equal(headerLinePath(line, 'def compute_total(order):'), undefined, line);
      assert.equal(headerLinePath(line), undefined, line);
    }
    for (const line of ['billing/totals.py:', '==> billing/totals.py <==', '=== billing/totals.py ===']) assert.equal(headerLinePath(line, 'def compute_total(order):'), 'billing/totals.py', line);
    // A list item in the user's own notes is theirs, even above a fence.
    assert.equal(headerLinePath('- Tests in `tests/test_totals.py`:', '```python'), undefined);
    assert.equal(headerLinePath('2. Then `billing/totals.py`:', '```python'), undefined);
  });

  it('takes no line of prose, diff, URL or heading for a file header', () => {
    for (const line of ['Example:', 'Note: see below', '--- a/billing/totals.py', '+++ b/billing/totals.py', 'https://example.com/a.html:', '### Steps to reproduce', 'Version 1.2.3:', '## 2.0.1', 'Here is the log:', 'totals.py', '`compute_total`:', '```python', '- Tests in `tests/test_totals.py`:']) {
      assert.equal(headerLinePath(line, '```python'), undefined, line);
    }
  });

  it('reads the path a fence names in its info string or on its first line', () => {
    assert.equal(fencePath('```python billing/totals.py', 'def f():'), 'billing/totals.py');
    assert.equal(fencePath('```totals.py', 'def f():'), 'totals.py');
    assert.equal(fencePath('```python title="billing/totals.py"', 'def f():'), 'billing/totals.py');
    assert.equal(fencePath('```py:billing/totals.py', 'def f():'), 'billing/totals.py');
    assert.equal(fencePath('~~~ts', '// File: src/app.ts'), 'src/app.ts');
    assert.equal(fencePath('```python', '# billing/totals.py'), 'billing/totals.py');
    assert.equal(fencePath('```sql', '-- db/schema.sql'), 'db/schema.sql');
    assert.equal(fencePath('```typescript', '// filepath: /work/app/src/server.ts'), '/work/app/src/server.ts');
    // Copilot's own convention in the code blocks it writes: four backticks, a Windows path.
    assert.equal(fencePath('````typescript', '// filepath: c:\\Users\\someone\\proj01\\example.ts'), 'c:\\Users\\someone\\proj01\\example.ts');
    assert.equal(fencePath('```python c:\\src\\app.py', 'x = 1'), 'c:\\src\\app.py');
  });

  it('finds no path in a plain fence or a code comment', () => {
    assert.equal(fencePath('```python', 'def f():'), undefined);
    assert.equal(fencePath('```python', '# coding: utf-8'), undefined);
    assert.equal(fencePath('```python', '#!/usr/bin/env python'), undefined);
    assert.equal(fencePath('```node.js', 'const a = 1;'), undefined);
    assert.equal(fencePath('```node.js title="server/app.js"', 'const a = 1;'), 'server/app.js');
    assert.equal(fencePath('```', undefined), undefined);
    assert.equal(fencePath('not a fence', '# a.py'), undefined);
  });

  it('tells file paths from versions, URLs and words', () => {
    for (const path of ['a.py', 'src/app.ts', './x/y.rs', '/etc/nginx/nginx.conf', 'tests/test_app.py', 'pkg/@scope/index.d.ts', 'c:\\src\\app.ts', '..\\lib\\util.js']) assert.ok(isFilePath(path), path);
    for (const token of ['1.2.3', 'python', 'http://x.com/a.py', 'a b.py', 'e.g', '.py', 'v1.2']) assert.ok(!isFilePath(token), token);
  });
});
