import * as assert from 'node:assert/strict';
import { languageFromContent, languageFromPath } from './languageDetection';
import { recognizeSource, type RecognizedSource } from './sourceRecognition';

function recognized(text: string, hint?: Parameters<typeof recognizeSource>[1]): RecognizedSource {
  const result = recognizeSource(text, hint);
  assert.ok('source' in result, `not recognised: ${'reason' in result ? result.reason : ''}`);
  return result.source;
}

const PYTHON = ['import os', '', 'def f(x):', '    return g(x)', '', 'def g(y):', '    return y'];

describe('recognizeSource', () => {
  it('strips cat -n / nl -ba prefixes and keeps their numbers', () => {
    const text = PYTHON.map((line, index) => `${String(index + 240).padStart(6)}\t${line}`).join('\n');
    const source = recognized(text, { path: 'a.py', firstLine: 240 });
    assert.equal(source.code, PYTHON.join('\n'));
    assert.deepEqual(source.lineNumbers, PYTHON.map((_, index) => index + 240));
    assert.equal(source.prefixLengths[0], 7);
    assert.equal(source.language.id, 'python');
  });

  it('reads nl without -ba, whose blank lines carry no number', () => {
    let number = 0;
    const text = PYTHON.map((line) => (line === '' ? '       ' : `${String(++number).padStart(6)}\t${line}`)).join('\n');
    const source = recognized(text, { path: 'a.py', firstLine: 1 });
    assert.equal(source.code, PYTHON.join('\n'));
  });

  it('reads editor results numbered with an arrow', () => {
    const text = PYTHON.map((line, index) => `${String(index + 1).padStart(6)}→${line}`).join('\n');
    assert.equal(recognized(text, { path: '/w/a.py' }).code, PYTHON.join('\n'));
  });

  it('finds the code inside an editor result fence and the first line in its header', () => {
    const text = ['File: `src/a.py`. Lines 10 to 16 (90 lines total):', '```python', ...PYTHON, '```'].join('\n');
    const source = recognized(text, { path: 'src/a.py' });
    assert.equal(source.codeStart, 2);
    assert.equal(source.code, PYTHON.join('\n'));
    const sourceWithoutLine = recognized(text);
    assert.equal(sourceWithoutLine.lineNumbers?.[0], 10);
  });

  it('takes the language from the path first, the content second', () => {
    assert.equal(recognized(PYTHON.join('\n'), { path: 'tool.rb' }).language.id, 'ruby');
    assert.equal(recognized(PYTHON.join('\n')).language.id, 'python');
    assert.deepEqual(recognizeSource(PYTHON.join('\n'), { path: 'notes.md' }), { reason: 'unknown-language' });
    assert.deepEqual(recognizeSource('Ran 12 tests in 0.3s\n\nOK', undefined), { reason: 'not-source' });
  });

  it('does not take unnumbered text with a few numbered-looking lines as numbered', () => {
    const code = ['def f():', '    x = {', '        1: "a",', '    }', '    return x'].join('\n');
    assert.equal(recognized(code, { path: 'a.py', firstLine: 1 }).code, code);
  });
});

describe('language detection', () => {
  it('maps extensions, longest first', () => {
    assert.equal(languageFromPath('src/App.tsx')?.id, 'tsx');
    assert.equal(languageFromPath('x.d.ts')?.id, 'typescript');
    assert.equal(languageFromPath('lib/a.cc')?.id, 'cpp');
    assert.equal(languageFromPath('README'), undefined);
  });
  it('recognises languages by content', () => {
    assert.equal(languageFromContent('#!/usr/bin/env bash\necho hi')?.id, 'bash');
    assert.equal(languageFromContent('package main\n\nimport "fmt"\n\nfunc main() {\n\tx := 1\n}')?.id, 'go');
    assert.equal(languageFromContent('use std::io;\n\npub fn main() {\n    let mut x = 1;\n}')?.id, 'rust');
    assert.equal(languageFromContent('<?php\nclass A { function b() { $this->c(); } }')?.id, 'php');
    assert.equal(languageFromContent('#include <vector>\nint main() { std::vector<int> v; }')?.id, 'cpp');
    assert.equal(languageFromContent('The quick brown fox.\nIt jumps.'), undefined);
  });
});
