import * as assert from 'node:assert/strict';
import { readHintFromCommand, readHintFromToolCall } from './readCommands';

describe('readHintFromCommand', () => {
  const cases: [string, ReturnType<typeof readHintFromCommand>][] = [
    ['cat astropy/modeling/separable.py', { path: 'astropy/modeling/separable.py', firstLine: 1 }],
    ['cat -n src/app.ts', { path: 'src/app.ts', firstLine: 1 }],
    ['cd /testbed && nl -ba django/db/models/query.py', { path: 'django/db/models/query.py', firstLine: 1 }],
    ["sed -n '240,260p' astropy/modeling/separable.py", { path: 'astropy/modeling/separable.py', firstLine: 240, lastLine: 260 }],
    ["nl -ba django/db/models/sql/query.py | sed -n '550,650p'", { path: 'django/db/models/sql/query.py', firstLine: 550, lastLine: 650 }],
    ["cat -n lib/x.rb | sed -n '10,+5p'", { path: 'lib/x.rb', firstLine: 10, lastLine: 15 }],
    ["sed -n '254,$p' astropy/io/ascii/html.py", { path: 'astropy/io/ascii/html.py', firstLine: 254 }],
    ['head -n 50 astropy/io/fits/header.py', { path: 'astropy/io/fits/header.py', firstLine: 1, lastLine: 50 }],
    ['cat main.go | head -20', { path: 'main.go', firstLine: 1, lastLine: 20 }],
    ['tail -n 20 django/db/models/sql/compiler.py', { path: 'django/db/models/sql/compiler.py' }],
    ["nl -ba x.py | grep -A 50 'def f'", undefined],
    ['cat a.py b.py', undefined],
    ['cat a.py && cat b.py', undefined],
    ["cat <<'EOF' > reproduce.py\nprint(1)\nEOF", undefined],
    ["sed -i 's/a/b/' x.py", undefined],
    ['python reproduce.py', undefined],
    ['grep -n "def f" x.py', undefined],
  ];
  for (const [command, expected] of cases) {
    it(`reads ${JSON.stringify(command)}`, () => {
      assert.deepEqual(readHintFromCommand(command), expected);
    });
  }
});

describe('readHintFromToolCall', () => {
  it('reads VS Code read_file arguments (a JSON string)', () => {
    assert.deepEqual(readHintFromToolCall('read_file', JSON.stringify({ filePath: '/w/src/a.ts', startLine: 20, endLine: 80 })), { path: '/w/src/a.ts', firstLine: 20, lastLine: 80 });
  });
  it('reads Claude Code Read arguments (offset and limit)', () => {
    assert.deepEqual(readHintFromToolCall('Read', { file_path: '/w/a.py', offset: 100, limit: 50 }), { path: '/w/a.py', firstLine: 100, lastLine: 149 });
  });
  it('reads str_replace_editor view with a range, and ignores its edits', () => {
    assert.deepEqual(readHintFromToolCall('str_replace_editor', { command: 'view', path: 'a.py', view_range: [5, 9] }), { path: 'a.py', firstLine: 5, lastLine: 9 });
    assert.equal(readHintFromToolCall('str_replace_editor', { command: 'str_replace', path: 'a.py' }), undefined);
  });
  it('reads a shell tool call running cat', () => {
    assert.deepEqual(readHintFromToolCall('bash', { command: 'cat -n src/a.rs' }), { path: 'src/a.rs', firstLine: 1 });
  });
  it('ignores tools that do not read files', () => {
    assert.equal(readHintFromToolCall('get_weather', { city: 'Oslo' }), undefined);
    assert.equal(readHintFromToolCall('read_file', 'not json'), undefined);
  });
});
