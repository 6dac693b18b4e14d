/**
 * Stash faults through the `herald` command line: a folder that cannot be created, an entries
 * folder that cannot be written, a full disk, truncated entry and memo files, and invalid
 * UTF-8 on stdin. `optimize` always prints a working request and a problem line; `retrieve`
 * never prints part of an original.
 */
import { strict as assert } from 'node:assert';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runHerald } from '../../support/cliRun';
import { findMarkers } from '../../../src/core/stash';

const run = runHerald;

/** A session whose 3,000-line log output is elided (as history, and as fresh giant output). */
const LOG = Array.from({ length: 3000 }, (_, index) => `2026-01-01T00:00:${String(index % 60).padStart(2, '0')}Z INFO worker ${index % 7} handled job ${index}`).join('\n');
const BODY = {
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: 'why is the worker slow?' },
    { role: 'assistant', content: null, tool_calls: [{ id: 'c1', type: 'function', function: { name: 'bash', arguments: '{"command":"cat worker.log"}' } }] },
    { role: 'tool', tool_call_id: 'c1', content: LOG },
    { role: 'assistant', content: 'Reading the log.' },
    { role: 'user', content: 'and now?' },
  ],
};
const REQUEST = JSON.stringify(BODY);

describe('hardening: stash faults through the CLI', function () {
  this.timeout(60_000);
  let root: string;
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-cli-faults-'));
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it('a sound stash elides (the baseline the faults below are measured against)', async () => {
    const result = await run(['optimize', '--stash', path.join(root, 'sound')], REQUEST);
    assert.equal(result.code, 0, result.stderr);
    assert.ok(findMarkers(result.stdout).length > 0, 'something was elided');
    assert.equal(result.stderr, '');
  });

  it('a stash folder that cannot be created: the request is printed unchanged with one problem line', async () => {
    fs.writeFileSync(path.join(root, 'plain-file'), 'not a folder');
    const result = await run(['optimize', '--stash', path.join(root, 'plain-file', 'stash')], REQUEST);
    assert.equal(result.code, 0);
    assert.deepEqual(JSON.parse(result.stdout), BODY);
    assert.match(result.stderr, /^herald: stash-unavailable: .*ENOTDIR/);
    assert.equal(result.stderr.trim().split('\n').length, 1);
  });

  it('an entries folder that cannot be written: the request goes out unelided and the problem is named', async () => {
    const stash = path.join(root, 'unwritable');
    fs.mkdirSync(stash);
    fs.writeFileSync(path.join(stash, 'entries'), 'a file where the entries folder should be');
    const result = await run(['optimize', '--stash', stash], REQUEST);
    assert.equal(result.code, 0);
    assert.deepEqual(JSON.parse(result.stdout), BODY, 'no marker that points at nothing');
    assert.match(result.stderr, /herald: stash-write-failed: /);
    assert.match(result.stderr, /herald: stash-write-failed-request-restored: /);
  });

  it('a full disk (a 64 KiB tmpfs): the request goes out unelided and the problem is named', async function () {
    const mountPoint = path.join(root, 'tiny');
    fs.mkdirSync(mountPoint);
    // Only root may mount; elsewhere the in-process full-store test in faults.test.ts covers it.
    const mounted = process.getuid?.() === 0 && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mountPoint]).status === 0;
    if (!mounted) this.skip();
    try {
      const result = await run(['optimize', '--stash', mountPoint], REQUEST);
      assert.equal(result.code, 0);
      assert.deepEqual(JSON.parse(result.stdout), BODY);
      assert.match(result.stderr, /ENOSPC/);
      assert.match(result.stderr, /stash-write-failed-request-restored/);
      // The memo and pins could not be written either: nothing of the run was kept.
      assert.doesNotMatch(result.stdout, /herald:/);
    } finally {
      spawnSync('umount', [mountPoint]);
    }
  });

  it('a truncated entry file is never read back: retrieve fails with a reason, expand leaves the marker', async () => {
    const stash = path.join(root, 'truncated');
    const optimized = await run(['optimize', '--stash', stash], REQUEST);
    const handle = findMarkers(optimized.stdout)[0]!.handle;
    const file = path.join(stash, 'entries', `${handle}.json`);
    const whole = fs.readFileSync(file, 'utf8');
    const sound = await run(['retrieve', handle, '--stash', stash]);
    assert.equal(sound.stdout, LOG);
    // Cut points across the file: at the start, inside the original, just before the end.
    for (const cut of [0, 1, 40, Math.floor(whole.length / 3), Math.floor(whole.length / 2), whole.length - 2, whole.length - 1]) {
      fs.writeFileSync(file, whole.slice(0, cut));
      const retrieved = await run(['retrieve', handle, '--stash', stash]);
      assert.equal(retrieved.code, 1, `cut at ${cut}`);
      assert.equal(retrieved.stdout, '', `cut at ${cut}: nothing partial printed`);
      assert.match(retrieved.stderr, cut === 0 ? /corrupted|incomplete/ : /corrupted/);
      const expanded = await run(['expand', '--stash', stash], optimized.stdout);
      assert.equal(expanded.code, 0);
      assert.deepEqual(JSON.parse(expanded.stdout), JSON.parse(optimized.stdout), 'the marker stays as it is; nothing of the damaged entry is spliced in');
    }
  });

  it('truncated memo and pin files: optimize reads them as absent, decides afresh and still elides', async () => {
    const stash = path.join(root, 'memo');
    const first = await run(['optimize', '--stash', stash], REQUEST);
    const files = fs.readdirSync(path.join(stash, 'state'));
    assert.ok(files.length > 0, 'the run wrote its memo and pins');
    for (const name of files) {
      const file = path.join(stash, 'state', name);
      fs.writeFileSync(file, fs.readFileSync(file, 'utf8').slice(0, 10));
    }
    const result = await run(['optimize', '--stash', stash], REQUEST);
    assert.equal(result.code, 0);
    assert.ok(findMarkers(result.stdout).length > 0);
    assert.equal(result.stdout, first.stdout, 'decided afresh, the same way');
  });

  it('invalid UTF-8 bytes on stdin of the built CLI become U+FFFD, never a crash', function () {
    const cli = path.resolve(__dirname, '..', '..', '..', 'dist', 'cli.js');
    if (!fs.existsSync(cli)) this.skip();
    const text = JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: 'AAAA' }, { role: 'assistant', content: 'ok' }, { role: 'user', content: 'BBBB' }] });
    // Lone continuation byte, truncated 3-byte sequence, overlong NUL, an encoded surrogate, and 0xFF.
    const bytes = Buffer.from(text, 'utf8');
    const hostile = Buffer.concat([bytes.subarray(0, bytes.indexOf('AAAA')), Buffer.from([0x80, 0x41, 0xe2, 0x82, 0x41, 0xc0, 0x80, 0xed, 0xa0, 0x80, 0xff]), bytes.subarray(bytes.indexOf('AAAA') + 4)]);
    const result = spawnSync(process.execPath, [cli, 'optimize', '--stash', path.join(root, 'bytes')], { input: hostile, encoding: 'utf8' });
    assert.equal(result.status, 0, result.stderr);
    const printed = JSON.parse(result.stdout) as { messages: { content: string }[] };
    assert.equal(printed.messages[0]!.content, Buffer.from([0x80, 0x41, 0xe2, 0x82, 0x41, 0xc0, 0x80, 0xed, 0xa0, 0x80, 0xff]).toString('utf8'));
    assert.ok(printed.messages[0]!.content.includes('\ufffd'));
    assert.equal(printed.messages[2]!.content, 'BBBB');
  });
});
