import { strict as assert } from 'node:assert';
import fc from 'fast-check';
import { loadTrajectory, skipWithoutData, trajectoryNames } from '../../../test/support/sharedData';
import { isConclusion } from './history/conclusions';
import { forEachMentionedName, mentionedNames, visibleNames } from './history/names';
import { splitSentences } from './history/sentences';
import { splitUnits } from './history/textUnits';
import { LATER_GAP, planTrim, renderTrim } from './history/trimPlan';

const MARKER = '[herald: test marker · retrieve hr_aaaaaaaaaaaaaaaa]';
const nothingSeen = { seenBefore: () => false, shownBefore: () => false };

describe('history_trim text units', () => {
  it('join back to the text byte for byte on every assistant message of the trajectories', function () {
    skipWithoutData(this);
    let checked = 0;
    for (const name of trajectoryNames()) {
      for (const message of loadTrajectory(name).messages) {
        if (message.role !== 'assistant') continue;
        assert.equal(splitUnits(message.content).map((unit) => unit.text).join(''), message.content, `${name}: units do not join back`);
        checked++;
      }
    }
    assert.ok(checked > 1000, `only ${checked} assistant messages checked`);
  });

  it('join back to the text for arbitrary text', () => {
    const pieces = fc.constantFrom('THOUGHT: ', 'Wait. ', 'e.g. ', '`a.b()`. ', '```bash\n', '```\n', '~~~\n', '\n', '\r\n', '  ', '    indented\n', '1. ', '- ', '# Head\n', 'foo.py. ', 'Done! ', 'Why? ', '<function=x>', '</function>', 'é…', '[herald: x · retrieve hr_aaaaaaaaaaaaaaaa]');
    fc.assert(fc.property(fc.array(fc.oneof(pieces, fc.string()), { maxLength: 30 }), (parts) => {
      const text = parts.join('');
      assert.equal(splitUnits(text).map((unit) => unit.text).join(''), text);
    }), { numRuns: 300, seed: 42 });
  });

  it('tells actions, quoted code, labels and sentences apart', () => {
    const text = 'THOUGHT: I read the file. It has a bug.\n\n```python\nx = 1\n```\n\nNow I fix it.\n\n```bash\nsed -i s/a/b/ f.py\n```';
    const units = splitUnits(text);
    assert.deepEqual(units.map((unit) => unit.kind), ['label', 'sentence', 'sentence', 'quote', 'sentence', 'action']);
    assert.equal(units[5]!.text, '```bash\nsed -i s/a/b/ f.py\n```');
  });

  it('finds an action fence opened at the end of a prose line', () => {
    const units = splitUnits('Wait, no. Run it: ```bash\nmake check\n```\nDone.');
    assert.deepEqual(units.map((unit) => unit.kind), ['sentence', 'sentence', 'action', 'sentence']);
    assert.equal(units[2]!.text, '```bash\nmake check\n```\n');
  });

  it('keeps an unclosed fence and an action tag whole', () => {
    const units = splitUnits('Plan.\n<function=bash>\n<parameter=command>ls\n</parameter>\n</function>\nThen:\n```bash\nmake test\n');
    assert.deepEqual(units.map((unit) => unit.kind), ['sentence', 'action', 'sentence', 'action']);
    assert.equal(units[3]!.text, '```bash\nmake test\n');
  });
});

describe('history_trim sentences', () => {
  it('split on terminal punctuation but not inside code, after abbreviations or list numbers', () => {
    assert.deepEqual(splitSentences('I read `a.b. C`. Then e.g. Foo works! Why? 1. Next'), ['I read `a.b. C`. ', 'Then e.g. Foo works! ', 'Why? ', '1. Next']);
    assert.deepEqual(splitSentences('See separable.py. It is short.'), ['See separable.py. ', 'It is short.']);
    assert.deepEqual(splitSentences('Version 3.9 is used (see "x.") Then more.'), ['Version 3.9 is used (see "x.") ', 'Then more.']);
  });
});

describe('history_trim names', () => {
  it('finds paths, identifiers, calls and numbers, not plain words', () => {
    const names = mentionedNames('Now I open astropy/modeling/separable.py and call `_cstack(left, right)` on line 245, then run myFunction() with MAX_SIZE.');
    for (const expected of ['astropy/modeling/separable.py', '_cstack', 'left', 'right', '245', 'myFunction', 'MAX_SIZE']) assert.ok(names.includes(expected), `missing ${expected} in ${names.join(', ')}`);
    for (const word of ['Now', 'open', 'and', 'call', 'line', 'then']) assert.ok(!names.includes(word), `plain word ${word} taken for a name`);
  });

  it('visits the mentioned names in order, each once, and stops where the visitor says', () => {
    const sentence = 'Call `load_all(a.b)` then load_all(x) and `a.b`, myFunction() again with load_all(y), then MAX_SIZE and src/app.py.';
    const all = mentionedNames(sentence);
    assert.equal(new Set(all).size, all.length);
    for (let stopAfter = 1; stopAfter <= all.length + 1; stopAfter++) {
      const seen: string[] = [];
      forEachMentionedName(sentence, (name) => {
        seen.push(name);
        return seen.length < stopAfter;
      });
      assert.deepEqual(seen, all.slice(0, stopAfter));
    }
  });

  it('makes every piece of a path or qualified name visible', () => {
    const names = visibleNames('cat astropy/modeling/separable.py; django.utils.autoreload.restart_with_reloader');
    for (const piece of ['astropy/modeling/separable.py', 'modeling/separable.py', 'separable.py', 'astropy/modeling', 'restart_with_reloader', 'django.utils.autoreload', 'utils.autoreload.restart_with_reloader']) {
      assert.ok(names.has(piece), `missing ${piece}`);
    }
  });

  it('finds the pieces the separator expression finds, on any mix of words and separators', () => {
    // The definition: a compound name's pieces lie between the matches of /::|[./:\\-]/g.
    const reference = (text: string): Set<string> => {
      const names = new Set<string>();
      for (const match of text.matchAll(/[A-Za-z0-9_$]+(?:(?:::|[./:\\-])[A-Za-z0-9_$]+)*/g)) {
        const token = match[0];
        names.add(token);
        const bounds: [number, number][] = [];
        let last = 0;
        for (const separator of token.matchAll(/::|[./:\\-]/g)) {
          bounds.push([last, separator.index]);
          last = separator.index + separator[0].length;
        }
        if (bounds.length === 0) continue;
        bounds.push([last, token.length]);
        const limit = Math.min(bounds.length, 12);
        for (let first = 0; first < limit; first++) for (let final = first; final < limit; final++) names.add(token.slice(bounds[first]![0], bounds[final]![1]));
      }
      return names;
    };
    const piece = fc.constantFrom('a', 'b', 'x1', '_', '$', ':', '::', ':::', '.', '/', '\\', '-', ' ', 'é', '(', 'py');
    fc.assert(fc.property(fc.array(piece, { maxLength: 40 }), (pieces) => {
      const text = pieces.join('');
      assert.deepEqual([...visibleNames(text)], [...reference(text)]);
    }), { numRuns: 2_000, seed: 15 });
    // Tokens met again, whole or as a run of a longer one (a path read, then its folder, its file): the same names in the same order.
    const compound = fc.array(fc.constantFrom('a', 'src', 'x1', '::', ':', '.', '/', '\\', '-', 'py'), { minLength: 1, maxLength: 16 }).map((parts) => parts.join(''));
    fc.assert(fc.property(fc.array(compound, { minLength: 1, maxLength: 8 }), fc.array(fc.nat(), { maxLength: 30 }), (pool, picks) => {
      const tokens = picks.map((pick) => pool[pick % pool.length]!);
      // Runs of the pool's tokens too: a folder of a path seen before or after it.
      const text = [...tokens, ...tokens.map((token) => token.slice(0, Math.max(1, token.lastIndexOf('/')))), ...tokens].join(' ');
      assert.deepEqual([...visibleNames(text)], [...reference(text)]);
    }), { numRuns: 2_000, seed: 16 });
    assert.ok(visibleNames('a::b:c.d/e\\f-g').has('b:c.d/e'));
  });
});

describe('history_trim mentioned names', () => {
  it('reads a token as a name as the expressions that define it do, on any mix of digits, cases and separators', () => {
    // The definition, as expressions: a prose word is a name when it is snake_case, camelCase,
    // dotted or slashed, a call, or a number of two digits or more (inline code aside).
    const notNames = new Set(['e.g', 'i.e', 'etc', 'vs']);
    const looksLikeName = (token: string, after: string | undefined): boolean => {
      if (notNames.has(token.toLowerCase())) return false;
      if (/^\d+$/.test(token)) return token.length >= 2;
      if (/^\d/.test(token)) return true;
      if (after === '(') return true;
      if (token.includes('_') || token.includes('::') || token.includes('/') || token.includes('\\')) return true;
      if (/[a-z][A-Z]/.test(token) || /^[A-Z]{2,}\d/.test(token)) return true;
      return /[A-Za-z0-9]\.[A-Za-z_]/.test(token);
    };
    const reference = (text: string): string[] => {
      const names: string[] = [];
      for (const match of text.matchAll(/[A-Za-z0-9_$]+(?:(?:::|[./:\\-])[A-Za-z0-9_$]+)*/g)) {
        const token = match[0];
        const end = match.index + token.length;
        const plainWord = /^[A-Za-z]+$/.test(token);
        const name = plainWord ? (text[end] === '(' || /[a-z][A-Z]/.test(token)) && !notNames.has(token.toLowerCase()) : looksLikeName(token, text[end]);
        if (name && !names.includes(token)) names.push(token);
      }
      return names;
    };
    const piece = fc.constantFrom('a', 'B', 'AB', 'e', 'g', 'I', 'vs', 'Etc', '1', '42', '0', '_', '$', ':', '::', '.', '/', '\\', '-', ' ', '(', 'x');
    fc.assert(fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
      const text = pieces.join('');
      assert.deepEqual(mentionedNames(text), reference(text));
    }), { numRuns: 3_000, seed: 26 });
  });
});

describe('history_trim conclusions', () => {
  it('recognizes findings, outcomes and decisions', () => {
    for (const sentence of ['The reproduction script confirms the issue.', 'So the bug is in `_cstack`.', 'All tests passed.', 'It raises a TypeError.', 'Instead, I will patch the caller.', 'Therefore the matrix is wrong.', "I've changed the loader to return early."]) {
      assert.ok(isConclusion(sentence), sentence);
    }
  });

  it('does not take exploration for a conclusion', () => {
    for (const sentence of ['Wait, does this fail?', 'Maybe the bug is elsewhere.', 'If the test fails, I will look again.', 'Let me think about the matrix.', 'I look at the file.']) {
      assert.ok(!isConclusion(sentence), sentence);
    }
  });
});

describe('history_trim plan', () => {
  const text = [
    'THOUGHT: I looked at the output above.',
    'Let me think about how the pieces fit together.',
    'Hmm, the function is long and does several things.',
    'The root cause is that `right` is overwritten with ones.',
    'I wonder about the other branch.',
    'It uses `helper_zeta` from there.',
    'I will edit the file now.',
    '',
    '```bash',
    "sed -i 's/= 1/= right/' pkg/separable.py",
    '```',
  ].join('\n');

  it('keeps the action, labels, conclusions, last sentences and unseen names, and drops the rest', () => {
    const plan = planTrim(text, { keepLastSentences: 1, ...nothingSeen, seenBefore: (name) => name !== 'helper_zeta' });
    const rendered = renderTrim(plan, MARKER);
    assert.ok(rendered.startsWith('THOUGHT: '));
    assert.ok(rendered.includes("```bash\nsed -i 's/= 1/= right/' pkg/separable.py\n```"));
    assert.ok(rendered.includes('The root cause is that `right` is overwritten with ones.'));
    assert.ok(rendered.includes('It uses `helper_zeta` from there.'), 'a sentence naming an unseen identifier went');
    assert.ok(rendered.includes('I will edit the file now.'));
    assert.ok(!rendered.includes('Let me think'));
    assert.ok(!rendered.includes('I wonder'));
    assert.equal(plan.droppedSentences, 4);
    // One marker at the first gap; the later gap is an ellipsis.
    assert.equal(rendered.split(MARKER).length, 2);
    assert.ok(rendered.includes(LATER_GAP));
  });

  it('drops a quoted block only when every line of it was shown earlier', () => {
    const quoted = 'I see this code:\n```python\n    return separable_matrix(left)\n```\nI will fix it.\n```bash\npytest\n```';
    const shown = planTrim(quoted, { keepLastSentences: 1, seenBefore: () => true, shownBefore: (line) => line === 'return separable_matrix(left)' });
    assert.equal(shown.droppedQuotes, 1);
    const unseen = planTrim(quoted, { keepLastSentences: 1, seenBefore: () => true, shownBefore: () => false });
    assert.equal(unseen.droppedQuotes, 0);
  });

  it('keeps the caption of a code block it keeps', () => {
    const captioned = `${'Let me think about this for a while. '.repeat(3)}The new version reads:\n\`\`\`python\nreturn compute(left) or []\n\`\`\`\nMaybe later. I will run it.\n\`\`\`bash\npytest\n\`\`\``;
    const rendered = renderTrim(planTrim(captioned, { keepLastSentences: 1, seenBefore: () => true, shownBefore: () => false }), MARKER);
    assert.ok(rendered.includes('The new version reads:\n```python'));
    assert.ok(!rendered.includes('Maybe later.'));
  });

  it('keeps every sentence when asked to keep more than there are', () => {
    const plan = planTrim(text, { keepLastSentences: 50, ...nothingSeen });
    assert.equal(plan.droppedSentences, 0);
    assert.equal(renderTrim(plan, MARKER), text);
  });
});
