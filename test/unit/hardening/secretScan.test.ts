/**
 * The end-to-end test's leak scan must catch a leak: a canary planted in a temporary tree, in each
 * form a leak takes on disk, is found in the right file; a clean tree, an excluded file and a link
 * pointing outside the roots give nothing.
 */
import { strict as assert } from 'node:assert';
import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as zlib from 'node:zlib';
import { scanForSecret, secretForms } from '../../e2e/secretScan';

describe('hardening: the e2e secret scan finds a planted key', () => {
  let root: string;
  let outside: string;
  const canary = `sk-herald-canary-${randomBytes(12).toString('hex')}`;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-secret-scan-'));
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-secret-outside-'));
    fs.mkdirSync(path.join(root, 'User', 'globalStorage', 'herald.herald', 'stash'), { recursive: true });
    fs.mkdirSync(path.join(root, 'logs', 'exthost1'), { recursive: true });
    fs.writeFileSync(path.join(root, 'User', 'settings.json'), JSON.stringify({ 'herald.endpoints': [{ name: 'e2e', url: 'http://127.0.0.1/v1' }] }));
    fs.writeFileSync(path.join(root, 'logs', 'exthost1', 'Herald.log'), 'info request optimized\n'.repeat(50));
    fs.writeFileSync(path.join(root, 'User', 'globalStorage', 'herald.herald', 'stash', 'abc.json'), JSON.stringify({ original: 'x'.repeat(2000) }));
  });

  afterEach(() => {
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(outside, { recursive: true, force: true });
  });

  it('a clean tree gives no hits and counts every file it read', () => {
    const result = scanForSecret([root], canary);
    assert.deepEqual(result.hits, []);
    assert.equal(result.scanned.length, 3);
    assert.deepEqual(result.unreadable, []);
  });

  it('finds the key written in plain text, in UTF-16 and in hex', () => {
    const log = path.join(root, 'logs', 'exthost1', 'Herald.log');
    fs.appendFileSync(log, `debug headers {"authorization":"Bearer ${canary}"}\n`);
    const database = path.join(root, 'User', 'state.vscdb');
    fs.writeFileSync(database, Buffer.concat([randomBytes(300), Buffer.from(`{"key":"${canary}"}`, 'utf16le'), randomBytes(300)]));
    const dump = path.join(root, 'dump.txt');
    fs.writeFileSync(dump, `bytes: ${Buffer.from(canary).toString('hex')}\n`);
    const result = scanForSecret([root], canary);
    assert.deepEqual(result.hits.map((hit) => [path.relative(root, hit.file), hit.form]).sort(), [
      ['User/state.vscdb', 'utf-16le'],
      ['dump.txt', 'hex'],
      ['logs/exthost1/Herald.log', 'plain'],
    ]);
  });

  it('finds the key inside a longer base64 or base64url blob at every byte alignment', () => {
    for (let prefix = 0; prefix < 6; prefix++) {
      const stash = path.join(root, 'User', 'globalStorage', 'herald.herald', 'stash', `leak${prefix}.json`);
      const payload = Buffer.from(`${'p'.repeat(prefix)}{"apiKey":"${canary}","more":"${'q'.repeat(prefix * 7)}"}`);
      const encoded = prefix % 2 === 0 ? payload.toString('base64') : payload.toString('base64url');
      fs.writeFileSync(stash, JSON.stringify({ blob: encoded }));
      const result = scanForSecret([root], canary);
      const found = result.hits.filter((hit) => hit.file === stash);
      assert.equal(found.length, 1, `prefix ${prefix}: ${JSON.stringify(result.hits)}`);
      assert.match(found[0]!.form, /^base64/);
      fs.rmSync(stash);
    }
  });

  it('finds the key in a gzipped log', () => {
    const rotated = path.join(root, 'logs', 'exthost1', 'Herald.1.log.gz');
    fs.writeFileSync(rotated, zlib.gzipSync(Buffer.from(`trace key=${canary}\n${'filler line\n'.repeat(500)}`)));
    const result = scanForSecret([root], canary);
    assert.deepEqual(result.hits.map((hit) => hit.form), ['plain in gunzipped content']);
  });

  it('scans single files given as roots, and reports which file holds the key', () => {
    const report = path.join(outside, 'herald-savings.json');
    fs.writeFileSync(report, JSON.stringify({ schema: 1, note: canary }));
    const result = scanForSecret([root, report], canary);
    assert.deepEqual(result.hits, [{ file: report, form: 'plain' }]);
    assert.equal(result.scanned.length, 4);
  });

  it('an excluded file is named, not read; a near miss and a link out of the roots give nothing', () => {
    const secrets = path.join(root, 'User', 'secrets.json');
    fs.writeFileSync(secrets, canary);
    fs.writeFileSync(path.join(outside, 'elsewhere.txt'), canary);
    fs.symlinkSync(path.join(outside, 'elsewhere.txt'), path.join(root, 'link.txt'));
    fs.writeFileSync(path.join(root, 'near.txt'), `${canary.slice(0, -1)}${canary.endsWith('0') ? '1' : '0'}`);
    const result = scanForSecret([root], canary, { exclude: [secrets] });
    assert.deepEqual(result.hits, []);
    assert.deepEqual(result.excluded, [secrets]);
    assert.ok(result.scanned.includes(path.join(root, 'near.txt')));
    assert.ok(!result.scanned.includes(path.join(root, 'link.txt')));
  });

  it('refuses a secret short enough to match by chance', () => {
    assert.throws(() => secretForms('short'), /at least 8 characters/);
  });
});
