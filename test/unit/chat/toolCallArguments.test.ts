import { strict as assert } from 'node:assert';
import { argumentEntries, argumentStrings, jsonStringValues, withArgumentStrings } from '../../../src/core/chat/toolCallArguments';

describe('tool-call argument strings', () => {
  const raw = '{"filePath": "c:\\\\src\\\\a.txt", "n": 1, "edits":[{"old":"x\\u00e9","new":"y"}, "z"], "k": {"deep": ["a", {"b":"c"}]}, "e": [], "t": true}';

  it('finds the string values of a JSON text with their paths, never its keys', () => {
    assert.deepEqual(argumentEntries(raw).map((entry) => [entry.path, entry.value]), [
      [['filePath'], 'c:\\src\\a.txt'],
      [['edits', 0, 'old'], 'xé'],
      [['edits', 0, 'new'], 'y'],
      [['edits', 1], 'z'],
      [['k', 'deep', 0], 'a'],
      [['k', 'deep', 1, 'b'], 'c'],
    ]);
    // The same values, in the same order, from the parsed object.
    assert.deepEqual(argumentEntries(JSON.parse(raw)).map((entry) => entry.value), argumentStrings(raw));
  });

  it('tells a literal JSON.stringify writes back from one with optional escapes', () => {
    assert.deepEqual(jsonStringValues(raw)!.map((value) => value.canonical), [true, false, true, true, true, true]);
    assert.equal(jsonStringValues('{"a": "\\/x"}')![0]!.canonical, false);
  });

  it('replaces one value of a JSON text and keeps every other byte', () => {
    const values = argumentStrings(raw);
    values[2] = 'a "quoted"\nnew value';
    const out = withArgumentStrings(raw, values) as string;
    assert.equal(out, raw.replace('"new":"y"', '"new":"a \\"quoted\\"\\nnew value"'));
    assert.deepEqual(JSON.parse(out).edits[0], { old: 'xé', new: 'a "quoted"\nnew value' });
    assert.equal(withArgumentStrings(raw, argumentStrings(raw)), raw, 'nothing changed: the same string back');
  });

  it('rebuilds an object without mutating it, keeping keys and other values', () => {
    const object = { file_path: '/a.py', edits: [{ old_string: 'x', new_string: 'y', replace_all: false }], ['__proto__']: 'odd' };
    const parsed = JSON.parse(JSON.stringify(object)) as Record<string, unknown>;
    const values = argumentStrings(parsed);
    values[1] = 'X';
    const out = withArgumentStrings(parsed, values) as Record<string, unknown>;
    assert.deepEqual(Object.keys(out), Object.keys(parsed));
    assert.equal((out.edits as { old_string: string }[])[0]!.old_string, 'X');
    assert.equal((parsed.edits as { old_string: string }[])[0]!.old_string, 'x', 'the input is not mutated');
    assert.equal(JSON.stringify(out), JSON.stringify(parsed).replace('"old_string":"x"', '"old_string":"X"'));
  });

  it('has no values for JSON it cannot read, and refuses a wrong count', () => {
    assert.deepEqual(argumentStrings('{"a": '), []);
    assert.deepEqual(argumentStrings(undefined), []);
    assert.throws(() => withArgumentStrings('{"a":"b"}', []), /Herald: tool-call arguments hold 1 string values, 0 were given/);
  });
});
