import * as assert from 'node:assert/strict';
import { parseTrainArguments } from '../../../scripts/model/trainArguments';

describe('train-model arguments', () => {
  it('trains the recipe into the committed folder by default, and verifies without writing', () => {
    assert.deepEqual(parseTrainArguments([]), { verify: false, overrides: {} });
    assert.deepEqual(parseTrainArguments(['--verify']), { verify: true, overrides: {} });
    assert.deepEqual(parseTrainArguments(['--out', '/tmp/m']), { verify: false, out: '/tmp/m', overrides: {} });
  });

  it('takes a smaller model\'s sizes only with --out', () => {
    assert.deepEqual(parseTrainArguments(['--vocabulary', '20000', '--buckets', '4096', '--out', '/tmp/small']), { verify: false, out: '/tmp/small', overrides: { vocabularyMax: 20_000, ngramBuckets: 4096 } });
    assert.deepEqual(parseTrainArguments(['--out', 'x', '--dimension', '48']).overrides, { dimension: 48 });
    assert.throws(() => parseTrainArguments(['--vocabulary', '20000']), /write it elsewhere with --out DIR/);
    assert.throws(() => parseTrainArguments(['--verify', '--buckets', '4096']), /--out DIR/);
  });

  it('says what to type for a bad value or an unknown flag', () => {
    assert.throws(() => parseTrainArguments(['--buckets', 'many', '--out', 'x']), /--buckets needs a whole number above 0, got "many"; usage: npm run train-model/);
    assert.throws(() => parseTrainArguments(['--dimension', '0', '--out', 'x']), /above 0/);
    assert.throws(() => parseTrainArguments(['--out']), /--out needs a folder/);
    assert.throws(() => parseTrainArguments(['--fast']), /unknown argument "--fast"/);
    assert.throws(() => parseTrainArguments(['--verify', '--out', 'x']), /leave out --out/);
  });
});
