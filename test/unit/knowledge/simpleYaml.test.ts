/** The simple front matter reader gives what the `yaml` package gives, or steps aside. */
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { parseDocument } from 'yaml';
import { parseSimpleYaml } from '../../../src/core/knowledge/simpleYaml';
import { LIBRARY_DIR } from './support';

/** What the loader read before: `yaml`'s document as JavaScript, or undefined when it has errors. */
function fullParse(text: string): unknown {
  const document = parseDocument(text, { prettyErrors: false });
  return document.errors.length > 0 ? undefined : (document.toJS() ?? {});
}

function assertAgrees(text: string): void {
  const simple = parseSimpleYaml(text);
  if (simple === undefined) return;
  const full = fullParse(text);
  assert.notEqual(full, undefined, `the simple reader read YAML the full parser refuses: ${JSON.stringify(text)}`);
  assert.deepEqual(simple, full, JSON.stringify(text));
}

function frontMatterOf(file: string): string {
  const match = /^---[ \t]*\r?\n([\s\S]*?)\r?\n---/.exec(fs.readFileSync(file, 'utf8'));
  return match ? match[1]! : '';
}

function markdownFiles(folder: string): string[] {
  return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => entry.isDirectory() ? markdownFiles(path.join(folder, entry.name)) : entry.name.endsWith('.md') ? [path.join(folder, entry.name)] : []);
}

const SIMPLE_SCALARS = ['reference', 'Battlecard:Taxwell', '"Battlecard: Taxwell"', '"a, b"', "'single: quoted'", 'true', 'false', '2026-06-30', "Dana's notes", 'a [b]', 'Écoute', '日本語', 'x  y', 'yes', 'Null value', 'writing a cold email to a CFO'];
const SCALARS = ['reference', 'Battlecard: Taxwell', 'Battlecard:Taxwell', '"Battlecard: Taxwell"', '"a, b"', '"a]"', '""', "''", "'single: quoted'", "'it''s'", '"esc\\"aped"', 'yes', 'no', 'on', 'off', 'y', 'null', 'Null', 'NULL', '~', 'true', 'True', 'TRUE', 'false', 'FALSE', '1', '1.5', '-3', '0x1f', '0o17', '.inf', '.NaN', '1e3', '2026-06-30', '2026-6-30', '2026-06-30T10:00:00Z', 'a [b]', 'a, b', "Dana's notes", 'a "b" c', 'é', 'Écoute', '日本語', '-dash', '- item', 'a:b', 'a :b', 'a: b', 'a:', '? key', '&anchor a', '*alias', '!tag a', '|', '>', '%x', '@x', '`x', 'a # comment', 'a#b', 'x  y', 'trailing ', ' leading', '{a: b}', '[a, b]', '[]', '[ ]', '[a,]', '[a, [b]]', 'a]', 'a}', 'a,b', 'a\tb', 'a\\b', '\u00a0nbsp', 'z\u2028z', '\ufeffbom'];

describe('knowledge: the simple front matter reader', () => {
  it('reads every page of the test library as yaml does', () => {
    const files = markdownFiles(LIBRARY_DIR);
    let read = 0;
    for (const file of files) {
      const text = frontMatterOf(file);
      assertAgrees(text);
      if (parseSimpleYaml(text) !== undefined) read++;
    }
    // Most pages are in the simple form; the rest (comments, nesting) go to the full parser.
    assert.ok(read >= files.length * 0.8, `${read} of ${files.length} read`);
  });

  it('reads the forms pages use', () => {
    assert.deepEqual(parseSimpleYaml('title: "Battlecard: Taxwell"\ntype: battlecard\nnames: [Taxwell, "Tax Well"]\npinned: true\nexpires: 2026-06-30\ngood_for:\n  - competing against Taxwell\n  - a prospect\'s switch\n'), {
      title: 'Battlecard: Taxwell', type: 'battlecard', names: ['Taxwell', 'Tax Well'], pinned: true, expires: '2026-06-30', good_for: ['competing against Taxwell', "a prospect's switch"],
    });
    assert.deepEqual(parseSimpleYaml("tags: []\nowner: 'dana'\n"), { tags: [], owner: 'dana' });
  });

  it('steps aside for what it does not read: comments, nesting, numbers, repeated keys, empty values, escapes', () => {
    for (const text of ['title: A # note', 'title: A\ntitle: B', 'owner:', 'title: A\n  more', 'meta:\n  a: b', 'count: 3', 'title: "a\\"b"', 'title: *x', 'title:\tA', 'title: A\r', '---', 'good_for:\n  - a\n\n  - b', 'good_for:\n  - a\n - b', 'tags: [a,]', 'tags: [a, [b]]', 'title: null']) {
      assert.equal(parseSimpleYaml(text), undefined, text);
    }
  });

  it('agrees with yaml on generated front matter, or steps aside', () => {
    const key = fc.oneof({ weight: 6, arbitrary: fc.constantFrom('title', 'type', 'tags', 'good_for', 'names', 'status', 'pinned', 'questions', 'owner', 'usage_notes', 'x_1', 'File') }, { weight: 1, arbitrary: fc.constantFrom('null', 'Null', 'NULL', 'true', 'True', 'FALSE', 'yes', 'on', 'y', 'NaN', '__proto__', 'constructor') });
    // Mostly values of the simple form, so the reader answers often; the rest probe its edges.
    const scalar = fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...SIMPLE_SCALARS) }, { weight: 1, arbitrary: fc.constantFrom(...SCALARS) });
    const flow = fc.tuple(fc.array(scalar, { maxLength: 4 }), fc.constantFrom(', ', ',', ' , ', ',  ')).map(([items, separator]) => `[${items.join(separator)}]`);
    const block = fc.tuple(fc.array(scalar, { minLength: 1, maxLength: 3 }), fc.constantFrom('', '  ', '    ')).map(([items, indent]) => `\n${items.map((item) => `${indent}- ${item}`).join('\n')}`);
    const line = fc.tuple(key, fc.oneof({ weight: 4, arbitrary: scalar.map((value) => ` ${value}`) }, { weight: 2, arbitrary: flow.map((value) => ` ${value}`) }, { weight: 2, arbitrary: block }, { weight: 1, arbitrary: fc.constantFrom('', '  ') })).map(([name, value]) => `${name}:${value}`);
    const text = fc.array(fc.oneof({ weight: 8, arbitrary: line }, { weight: 1, arbitrary: fc.constant('') }), { minLength: 1, maxLength: 4 }).map((lines) => lines.join('\n'));
    let read = 0;
    fc.assert(fc.property(text, (yamlText) => {
      assertAgrees(yamlText);
      if (parseSimpleYaml(yamlText) !== undefined) read++;
    }), { numRuns: 3000, seed: 11 });
    // Not a test that passes by stepping aside every time.
    assert.ok(read >= 1000, `${read} of 3000 read`);
  });

  it('agrees with yaml on keys that read as null or booleans', () => {
    for (const key of ['null', 'Null', 'NULL', 'true', 'True', 'TRUE', 'false', 'False', 'FALSE', 'yes', 'on', 'y', 'NaN', 'constructor']) assertAgrees(`${key}: x\ntitle: T`);
  });

  it('agrees with yaml on every single value it reads', () => {
    for (const value of SCALARS) {
      assertAgrees(`title: ${value}`);
      assertAgrees(`tags: [${value}]`);
      assertAgrees(`tags: [a, ${value}, b]`);
      assertAgrees(`tags:\n  - ${value}`);
    }
  });
});
