import * as assert from 'node:assert/strict';
import { detectContentFormat } from './detect';
import { cleanFileListing, NAMES_PER_FOLDER } from './fileListing';

/** Every `folder/ (count)` line of a cleaned listing. */
function counts(text: string): Map<string, number> {
  return new Map([...text.matchAll(/^(\S+)\/ \((\d+)/gm)].map((match) => [match[1]!, Number(match[2])]));
}

describe('cleanFileListing', () => {
  it('groups find output by folder with counts', () => {
    const paths = ['./src/a.ts', './src/b.ts', './src/core/c.ts', './src/core/d.ts', './src/core/e.ts', './test/a.test.ts', './test/b.test.ts', './README.md', './package.json'];
    const text = paths.join('\n');
    assert.equal(detectContentFormat(text, { command: 'find . -type f' }), 'file-listing');
    assert.equal(detectContentFormat(text), 'file-listing');
    const result = cleanFileListing(text);
    assert.equal(result.text, ['./ (2): README.md, package.json', './src/ (2): a.ts, b.ts', './src/core/ (3): c.ts, d.ts, e.ts', './test/ (2): a.test.ts, b.test.ts'].join('\n'));
  });

  it('reads ls -R sections and sums up crowded and generated folders', () => {
    const many = Array.from({ length: NAMES_PER_FOLDER + 12 }, (_, index) => `module_${String(index).padStart(2, '0')}.${index % 3 === 0 ? 'json' : 'py'}`);
    const text = ['.:', 'pkg', 'setup.py', '', './pkg:', ...many, '__pycache__', '', './pkg/__pycache__:', 'a.cpython-39.pyc', 'b.cpython-39.pyc', 'c.cpython-39.pyc'].join('\n');
    const result = cleanFileListing(text);
    const folders = counts(result.text);
    assert.equal(folders.get('.'), 2);
    assert.equal(folders.get('./pkg'), NAMES_PER_FOLDER + 13);
    assert.equal(folders.get('./pkg/__pycache__'), 3);
    assert.ok(result.text.includes('… 13 more ('), result.text);
    assert.ok(!result.text.includes('a.cpython-39.pyc'), 'generated files are counted, not listed');
  });

  it('reads tree output', () => {
    const text = ['.', '├── src', '│   ├── index.ts', '│   └── util', '│       ├── a.ts', '│       └── b.ts', '├── test', '│   └── index.test.ts', '└── package.json', '', '4 directories, 5 files'].join('\n');
    assert.equal(detectContentFormat(text), 'file-listing');
    const folders = counts(cleanFileListing(text).text);
    assert.equal(folders.get('src/util'), 2);
    assert.equal(folders.get('src'), 2);
  });

  it('reads ls -l and leaves short listings alone', () => {
    const long = ['total 24', ...Array.from({ length: 9 }, (_, index) => `-rw-r--r-- 1 root root ${1000 + index} Nov 29 13:02 file_${index}.txt`), 'drwxr-xr-x 2 root root 4096 Nov 29 13:02 docs'].join('\n');
    const result = cleanFileListing(long);
    assert.ok(result.text.startsWith('./ (10): file_0.txt'), result.text);
    assert.ok(result.text.includes('docs/'));
    assert.equal(cleanFileListing('a.txt\nb.txt').changed, false);
  });
});
