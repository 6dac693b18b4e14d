import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describeError } from '../../src/core/errors';
import { writeFileAtomic } from '../../src/core/files';

describe('writeFileAtomic', () => {
  it('creates the folder, writes user-only and leaves no temporary file', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-files-'));
    const file = path.join(folder, 'nested', 'memo.json');
    writeFileAtomic(file, '{"a":1}');
    writeFileAtomic(file, '{"a":2}');
    assert.equal(fs.readFileSync(file, 'utf8'), '{"a":2}');
    assert.equal(fs.statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(fs.readdirSync(path.dirname(file)), ['memo.json']);
  });

  it('leaves the previous file whole when the write fails', () => {
    const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-files-'));
    const file = path.join(folder, 'state.json');
    writeFileAtomic(file, 'old');
    // A folder where the temporary file should go makes the write fail before the rename.
    fs.mkdirSync(`${file}.${process.pid}.tmp`);
    assert.throws(() => writeFileAtomic(file, 'new'));
    assert.equal(fs.readFileSync(file, 'utf8'), 'old');
  });
});

describe('describeError', () => {
  it('gives an error\'s message and anything else as text', () => {
    assert.equal(describeError(new Error('disk full')), 'disk full');
    assert.equal(describeError('plain'), 'plain');
    assert.equal(describeError(42), '42');
  });
});
