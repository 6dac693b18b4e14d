import * as assert from 'node:assert/strict';
import { languageFromContent, languageFromPath } from './languageDetection';
import { recognizeSource, type RecognizedSource } from './sourceRecognition';
import { seededInts } from '../../../test/support/seededInts';

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

describe('recognizeSource against the regular expressions it replaced', () => {
  /** recognizeSource as it was written with the prefix expressions and whole-line maps (the reference its scanners must match). */
  function before(text: string, hint: Parameters<typeof recognizeSource>[1]): ReturnType<typeof recognizeSource> {
    const NUMBERED = /^( *)(\d{1,7})(\t|→| \| |: )/;
    const BLANK_NUMBERED = /^ +$/;
    const lines = text.split('\n');
    let region = { start: 0, end: lines.length > 1 && lines[lines.length - 1] === '' ? lines.length - 1 : lines.length };
    const open = lines.findIndex((line) => /^(```|~~~)[\w+#.-]*\s*$/.test(line));
    if (open >= 0 && open <= 3) {
      const fence = lines[open]!.slice(0, 3);
      for (let close = lines.length - 1; close > open && close >= lines.length - 4; close--) {
        if (lines[close]!.trimEnd() === fence) {
          region = { start: open + 1, end: close };
          break;
        }
      }
    }
    const regionLines = lines.slice(region.start, region.end);
    const prefixes: number[] = [];
    const values: number[] = [];
    let numbered = 0;
    let nonBlank = 0;
    let previous = -1;
    let climbing = true;
    for (const line of regionLines) {
      const match = NUMBERED.exec(line);
      if (match) {
        const value = Number(match[2]);
        if (value <= previous) climbing = false;
        previous = value;
        numbered++;
        nonBlank++;
        prefixes.push(match[0].length);
        values.push(value);
      } else {
        if (!BLANK_NUMBERED.test(line) && line.length > 0) nonBlank++;
        prefixes.push(BLANK_NUMBERED.test(line) ? line.length : 0);
        values.push(previous);
      }
    }
    const numbering = numbered < 3 || !climbing || numbered < nonBlank * 0.95 ? undefined : { prefixLengths: prefixes, numbers: values };
    const prefixLengths = numbering?.prefixLengths ?? regionLines.map(() => 0);
    const codeLines = regionLines.map((line, index) => line.slice(prefixLengths[index]));
    const code = codeLines.join('\n');
    if (code.trim().length === 0) return { reason: 'empty' };
    const fromPath = hint ? languageFromPath(hint.path) : undefined;
    const language = fromPath ?? (hint && /\.[A-Za-z0-9]{1,8}$/.test(hint.path) && !/\.(txt|log)$/i.test(hint.path) ? undefined : languageFromContent(code));
    if (!language) return { reason: hint ? 'unknown-language' : 'not-source' };
    const header = lines.slice(0, region.start);
    let headerFirst: number | undefined;
    for (const line of header) {
      const match = /\blines? (\d+)\s*(?:to|-|–)\s*\d+/i.exec(line);
      if (match) {
        headerFirst = Number(match[1]);
        break;
      }
    }
    const firstLine = hint?.firstLine ?? headerFirst;
    const lineNumbers = numbering?.numbers ?? (firstLine === undefined ? undefined : codeLines.map((_, index) => firstLine + index));
    return { source: { language, path: hint?.path, lines, codeStart: region.start, prefixLengths, code, lineNumbers } };
  }

  /** Deterministic texts of numbered, half-numbered, fenced, blank and plain lines. */
  function* texts(count: number): Generator<string> {
    const next = seededInts(4_242);
    const separators = ['\t', '→', ' | ', ': ', ' |', ':', ' ', '-'];
    const bodies = ['def f(x):', '    return g(x)', '', 'import os', 'x = 1  # 12: not a prefix', '}', '   ', '```', '```python', '~~~', 'const a = 1;'];
    for (let index = 0; index < count; index++) {
      const lines: string[] = [];
      const length = 1 + next(40);
      let number = next(3) === 0 ? next(99_999_999) : 1 + next(200);
      const style = next(4);
      if (next(5) === 0) lines.push(next(2) === 0 ? '```py' : 'Here are lines 10 to 40:');
      for (let line = 0; line < length; line++) {
        const body = bodies[next(bodies.length)]!;
        if (style === 0 || next(60) === 0) lines.push(body);
        else if (body.trim() === '' && next(2) === 0) lines.push(' '.repeat(next(8)));
        else {
          number += next(80) === 0 ? -1 : 1 + next(2);
          lines.push(`${' '.repeat(next(7))}${number}${separators[style === 3 ? next(separators.length) : next(4)]}${body}`);
        }
      }
      if (next(4) === 0) lines.push('```');
      if (next(2) === 0) lines.push('');
      yield lines.join('\n');
    }
  }

  it('gives what the expressions gave on generated numbered, fenced and plain texts, with and without a hint', () => {
    let recognizedCount = 0;
    for (const text of texts(3_000)) {
      for (const hint of [undefined, { path: 'a.py' }, { path: 'notes.txt', firstLine: 5 }]) {
        const result = recognizeSource(text, hint);
        assert.deepEqual(result, before(text, hint), JSON.stringify(text));
        if ('source' in result && result.source.lineNumbers !== undefined && result.source.prefixLengths.some((length) => length > 0)) recognizedCount++;
      }
    }
    assert.ok(recognizedCount > 800, `only ${recognizedCount} numbered texts`);
  });
});
