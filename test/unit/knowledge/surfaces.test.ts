import * as assert from 'node:assert/strict';
import { contextCommand } from '../../../src/cli/contextCommand';
import type { CliIo } from '../../../src/cli/io';
import { readPage } from '../../../src/core/knowledge/readPage';
import { LIBRARY_DIR, now, testLibrary, writeLibrary } from './support';

function io(): CliIo & { out: string; err: string } {
  const captured = {
    out: '',
    err: '',
    readStdin: async () => '',
    stdout(text: string) { captured.out += text; },
    stderr(text: string) { captured.err += text; },
  };
  return captured;
}

describe('knowledge: read_page', () => {
  it('returns a whole page, labelled, with its attached file', async () => {
    const library = await testLibrary();
    const page = readPage(library, 'battlecards/levyline', { now });
    assert.ok(page);
    assert.equal(page.title, 'Battlecard: Levyline');
    assert.match(page.markdown, /_battlecard · full page · page_id: battlecards\/levyline_/);
    assert.match(page.markdown, /#### Landmines to lay/);
    assert.ok(page.tokens > 100);
    const withFile = writeLibrary({ 'sheet.md': '---\ntitle: Price sheet\nfile: files/prices.pdf\nusage_notes: Send only after a call.\n---\nSee the file.\n' });
    const { loadLibrary } = await import('../../../src/core/knowledge/library');
    const sheet = readPage(loadLibrary(withFile), 'sheet', { now })!;
    assert.equal(sheet.file, 'files/prices.pdf');
    assert.match(sheet.markdown, /> Usage: Send only after a call\.\n> Attached file: files\/prices\.pdf \(fetch it with get_file, page_id sheet\)/);
  });

  it('answers drafts, expired pages, others\' private notes and folders outside access like missing pages', async () => {
    const library = await testLibrary();
    assert.equal(readPage(library, 'nope', { now }), undefined);
    assert.equal(readPage(library, 'drafts/levyline-pricing-update', { now }), undefined);
    assert.equal(readPage(library, 'promotions/q3-2025-promo', { now }), undefined);
    assert.equal(readPage(library, 'notes/dana-call-notes', { now, viewer: 'sam' }), undefined);
    assert.ok(readPage(library, 'notes/dana-call-notes', { now, viewer: 'dana' }));
    assert.equal(readPage(library, 'pricing/add-ons', { now, allowedFolders: ['battlecards'] }), undefined);
  });
});

describe('knowledge: herald context command', () => {
  it('prints the Markdown bundle', async () => {
    const captured = io();
    const code = await contextCommand(['--library', LIBRARY_DIR, '--task', 'what is the refund window?', '--max-tokens', '3000'], captured);
    assert.equal(code, 0);
    assert.match(captured.out, /## Rules \(always follow\)/);
    assert.match(captured.out, /page_id: reference\/refund-policy/);
    assert.equal(captured.err, '');
  });

  it('prints JSON with --json, honouring --pack, --tags and --folder', async () => {
    const captured = io();
    const code = await contextCommand(['--library', LIBRARY_DIR, '--task', 'cold email to a CFO about Levyline', '--json', '--pack', 'Competitive deal', '--tags', 'competitive,persona', '--folder', 'battlecards'], captured);
    assert.equal(code, 0);
    const result = JSON.parse(captured.out) as { packs: string[]; pages: { page_id: string }[] };
    assert.deepEqual(result.packs, ['Competitive deal']);
    assert.ok(result.pages.length > 0 && result.pages.every((page) => page.page_id.startsWith('battlecards/')));
  });

  const bad: [string, string[], RegExp][] = [
    ['no task', ['--library', LIBRARY_DIR], /--task "…" is required/],
    ['budget too small', ['--library', LIBRARY_DIR, '--task', 'x', '--max-tokens', '200'], /--max-tokens must be a whole number from 1000 to 30000, not "200"/],
    ['budget not a number', ['--library', LIBRARY_DIR, '--task', 'x', '--max-tokens', 'lots'], /--max-tokens/],
    ['missing library', ['--library', '/nonexistent/herald', '--task', 'x'], /library folder "\/nonexistent\/herald" does not exist/],
    ['unknown pack', ['--library', LIBRARY_DIR, '--task', 'x', '--pack', 'Renewals'], /no pack named "Renewals"/],
    ['unknown option', ['--library', LIBRARY_DIR, '--task', 'x', '--colour', 'red'], /unknown option --colour/],
    ['empty tags', ['--library', LIBRARY_DIR, '--task', 'x', '--tags', ','], /--tags needs at least one tag/],
  ];
  for (const [name, args, message] of bad) {
    it(`bad input (${name}): one line on stderr, non-zero exit`, async () => {
      const captured = io();
      const code = await contextCommand(args, captured);
      assert.notEqual(code, 0);
      assert.equal(captured.out, '');
      assert.match(captured.err, message);
      assert.equal(captured.err.trim().split('\n').length, 1);
    });
  }
});
