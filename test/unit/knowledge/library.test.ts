import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseFrontMatter } from '../../../src/core/knowledge/frontMatter';
import { INDEX_SCHEMA_VERSION, loadLibrary } from '../../../src/core/knowledge/library';
import { findLinks, splitSections } from '../../../src/core/knowledge/markdown';
import { RecordingLogger } from '../../../src/core/ports';
import { copyLibrary, LIBRARY_DIR, writeLibrary } from './support';

const page = (front: string, body = '# Title\n\nText.\n'): string => `---\n${front}\n---\n${body}`;

describe('knowledge: front matter', () => {
  it('validates a page and fills defaults, read_whole by type', () => {
    const result = parseFrontMatter(page('title: Email style\ntype: style\ntags: [Voice, email]'));
    assert.ok(result.ok);
    assert.equal(result.meta.status, 'published');
    assert.deepEqual(result.meta.tags, ['voice', 'email']);
    assert.equal(result.meta.pinned, false);
    assert.equal(result.meta.read_whole, undefined);
  });

  it('reports an unknown key on its own line', () => {
    const result = parseFrontMatter(page('title: A\ntype: rule\nowner_team: sales'));
    assert.ok(!result.ok);
    assert.equal(result.problems[0]!.line, 4);
    assert.match(result.problems[0]!.message, /owner_team/);
  });

  it('reports a bad value with the line of its key', () => {
    const result = parseFrontMatter(page('title: A\nstatus: live\nexpires: 2026-13'));
    assert.ok(!result.ok);
    const lines = result.problems.map((problem) => problem.line).sort();
    assert.deepEqual(lines, [3, 4]);
    assert.ok(result.problems.some((problem) => /status/.test(problem.message)));
    assert.ok(result.problems.some((problem) => /expires/.test(problem.message)));
  });

  it('requires an owner for a private page, a title, and front matter at all', () => {
    const privateResult = parseFrontMatter(page('title: Notes\nprivate: true'));
    assert.ok(!privateResult.ok && /owner/.test(privateResult.problems[0]!.message));
    const untitled = parseFrontMatter(page('type: rule'));
    assert.ok(!untitled.ok && /title/.test(untitled.problems[0]!.message));
    const bare = parseFrontMatter('# Just markdown\n');
    assert.ok(!bare.ok && bare.problems[0]!.line === 1);
  });

  it('reports YAML syntax errors with their line', () => {
    const result = parseFrontMatter(page('title: A\ntags: [one,\n  two\ngood_for: x'));
    assert.ok(!result.ok);
    assert.ok(result.problems[0]!.line >= 3, `line ${result.problems[0]!.line}`);
    assert.match(result.problems[0]!.message, /^YAML/);
  });
});

describe('knowledge: sections, rows and links', () => {
  it('splits by headings, skips a bare title heading, ignores headings in code fences', () => {
    const sections = splitSections('p', 'Guide', '# Guide\n\n## One\nAlpha\n\n```\n# not a heading\n```\n\n## Two\n### Deep\nBeta\n');
    assert.deepEqual(sections.map((section) => section.headingPath), [['Guide', 'One'], ['Guide', 'Two', 'Deep']]);
    assert.match(sections[0]!.text, /# not a heading/);
    assert.ok(sections.every((section) => section.tokens > 0));
  });

  it('turns table rows into units that carry the table description', () => {
    const loaded = loadLibrary(LIBRARY_DIR);
    const rows = loaded.page('pricing/regional-pricing')!.sections.flatMap((section) => section.rows);
    assert.equal(rows.length, 4);
    assert.match(rows[1]!.text, /Region: United Kingdom; Currency: GBP/);
    assert.match(rows[1]!.description, /Growth plan platform fee per year by billing region/);
    assert.match(rows[1]!.header, /^\| Region/);
  });

  it('finds [[links]] with and without labels', () => {
    assert.deepEqual(findLinks('See [[Plans and prices]] and [[Regional pricing|prices abroad]], again [[Plans and prices]].'), ['Plans and prices', 'Regional pricing']);
  });
});

describe('knowledge: loading a library', () => {
  it('loads the test library whole, with packs, settings, links and folders', () => {
    const loaded = loadLibrary(LIBRARY_DIR);
    assert.ok(loaded.pages.length >= 40, `${loaded.pages.length} pages`);
    assert.deepEqual(loaded.problems, []);
    assert.deepEqual(loaded.packs.map((pack) => pack.name).sort(), ['Competitive deal', 'Outbound email']);
    assert.deepEqual(loaded.packs.find((pack) => pack.name === 'Outbound email')!.always, ['voice/email-style']);
    assert.deepEqual(loaded.packs.find((pack) => pack.name === 'Outbound email')!.whenRelevant.slice(0, 2), ['templates/cold-email', 'templates/follow-up-email']);
    assert.equal(loaded.settings.organization, 'Tallyway');
    assert.deepEqual(loaded.linksFrom.get('objections/too-expensive'), ['pricing/plans-and-prices']);
    assert.ok(loaded.linksTo.get('markets/logistics')!.includes('customers/northwind-case-study'));
    const coherence = (folder: string): number => loaded.folder(folder)!.coherence;
    // A folder of one battlecard per competitor is a catalogue; the voice folder is one topic.
    assert.equal(coherence('battlecards'), 0);
    assert.ok(coherence('voice') > coherence('processes'), `voice ${coherence('voice')} processes ${coherence('processes')}`);
    assert.ok(loaded.names.some((name) => name.name === 'Levyline' && name.kind === 'competitor'));
    assert.ok(!loaded.names.some((name) => name.name === 'Draft'), 'drafts name nothing');
  });

  it('reports each broken page with file and line while the rest loads', () => {
    const directory = writeLibrary({
      'good.md': page('title: Good page'),
      'team/bad-status.md': page('title: Bad\nstatus: maybe'),
      'team/no-front.md': '# No front matter\n',
      'dup-a.md': page('id: same\ntitle: First'),
      'dup-b.md': page('id: same\ntitle: Second'),
      'sales.pack.yaml': 'name: Sales\nalways: [Good page, Missing page]\n',
      'broken.pack.yaml': 'name: Broken\ncolour: red\n',
    });
    const logger = new RecordingLogger();
    const loaded = loadLibrary(directory, { logger });
    assert.deepEqual(loaded.pages.map((entry) => entry.id).sort(), ['good', 'same']);
    const byFile = new Map(loaded.problems.map((problem) => [problem.file, problem]));
    assert.equal(byFile.get('team/bad-status.md')!.line, 3);
    assert.equal(byFile.get('team/bad-status.md')!.code, 'front-matter-invalid');
    assert.equal(byFile.get('team/no-front.md')!.line, 1);
    assert.equal(byFile.get('dup-b.md')!.code, 'page-id-duplicate');
    assert.equal(byFile.get('broken.pack.yaml')!.line, 2);
    assert.equal(byFile.get('sales.pack.yaml')!.code, 'pack-page-unknown');
    assert.deepEqual(loaded.packs.map((pack) => [pack.name, pack.always]), [['Sales', ['good']]]);
    assert.ok(logger.lines.some((line) => line.code === 'front-matter-invalid' && line.message.includes('team/bad-status.md:3')));
  });

  it('fails with a named error when the folder is missing', () => {
    assert.throws(() => loadLibrary(path.join(LIBRARY_DIR, 'nope')), /Herald: library folder .* does not exist/);
  });
});

describe('knowledge: saved index', () => {
  it('saves with a schema version and rebuilds only changed files', () => {
    const directory = copyLibrary();
    const indexFile = path.join(directory, '.index', 'library.json');
    const first = loadLibrary(directory, { indexFile });
    assert.equal(first.statistics.reused, 0);
    assert.equal(JSON.parse(fs.readFileSync(indexFile, 'utf8')).schemaVersion, INDEX_SCHEMA_VERSION);

    const unchanged = loadLibrary(directory, { indexFile });
    assert.equal(unchanged.statistics.parsed, 0);
    assert.equal(unchanged.statistics.reused, first.pages.length);

    const refunds = path.join(directory, 'reference', 'refund-policy.md');
    fs.writeFileSync(refunds, fs.readFileSync(refunds, 'utf8').replace('charged twice', 'billed twice by a zeppelin'));
    fs.rmSync(path.join(directory, 'objections', 'not-now.md'));
    const changed = loadLibrary(directory, { indexFile });
    assert.equal(changed.statistics.parsed, 1);
    assert.equal(changed.statistics.removed, 1);
    assert.equal(changed.pages.length, first.pages.length - 1);
    const zeppelin = changed.index.query('zeppelin');
    assert.deepEqual(zeppelin.map((hit) => hit.id), ['reference/refund-policy#2']);
    assert.equal(changed.index.query('registration lead time').filter((hit) => hit.id.startsWith('objections/not-now')).length, 0, 'removed page is gone from the index');
    // The incremental index answers like one built from scratch.
    const fresh = loadLibrary(directory);
    assert.deepEqual(changed.index.query('refund window duplicate').map((hit) => hit.id), fresh.index.query('refund window duplicate').map((hit) => hit.id));
  });

  it('refuses an index of an unknown version and rebuilds an older one', () => {
    const directory = copyLibrary();
    const indexFile = path.join(directory, '.index.json');
    fs.writeFileSync(indexFile, JSON.stringify({ schemaVersion: INDEX_SCHEMA_VERSION + 1, pages: {}, search: '' }));
    assert.throws(() => loadLibrary(directory, { indexFile }), new RegExp(`schema version ${INDEX_SCHEMA_VERSION + 1}, this Herald reads version ${INDEX_SCHEMA_VERSION}; delete the file`));
    fs.writeFileSync(indexFile, JSON.stringify({ schemaVersion: INDEX_SCHEMA_VERSION - 1, pages: {}, search: '' }));
    const logger = new RecordingLogger();
    const loaded = loadLibrary(directory, { indexFile, logger });
    assert.equal(loaded.statistics.reused, 0);
    assert.ok(logger.lines.some((line) => line.code === 'index-outdated'));
    assert.equal(JSON.parse(fs.readFileSync(indexFile, 'utf8')).schemaVersion, INDEX_SCHEMA_VERSION);
  });
});
