import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RecordingLogger } from '../../../src/core/ports';
import { LibraryService } from '../../../src/vscode/library/libraryService';

const SAMPLE = path.resolve(__dirname, '../../e2e/fixtures/sample-library');

describe('library service', () => {
  let workspace: string;
  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-library-'));
    fs.cpSync(SAMPLE, path.join(workspace, '.herald'), { recursive: true });
  });
  afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

  it('lists the pages by folder with type, status and flags', () => {
    const view = new LibraryService(workspace, '.herald', new RecordingLogger()).view();
    assert.equal(view.available, true);
    assert.deepEqual(view.pages.map((page) => `${page.folder}/${page.title}`), ['billing/Invoice numbering', 'billing/Refund policy', 'engineering/Code review checklist', 'engineering/Release notes style']);
    const refunds = view.pages.find((page) => page.title === 'Refund policy')!;
    assert.equal(refunds.type, 'rule');
    assert.ok(refunds.flags.includes('read whole'));
    assert.equal(view.pages.find((page) => page.title === 'Release notes style')!.status, 'draft');
    assert.match(view.activity[0]!.text, /4 pages/);
  });

  it('finds pages by their sections, and offers the nearest pages when nothing matches', () => {
    const service = new LibraryService(workspace, '.herald', new RecordingLogger());
    const found = service.search('refund window after a downgrade');
    assert.equal(found.results[0]?.title, 'Refund policy');
    assert.deepEqual(found.nearest, []);
    const nothing = service.search('kubernetes autoscaling');
    assert.deepEqual(nothing.results, []);
    assert.ok(nothing.nearest.length > 0);
    assert.equal(service.view().search?.query, 'kubernetes autoscaling');
  });

  it('says how to start when the folder is missing, and reloads when a page is added', () => {
    const missing = new LibraryService(workspace, 'no-such-folder', new RecordingLogger());
    assert.equal(missing.view().available, false);
    assert.match(missing.view().message ?? '', /New Library Page/);
    const service = new LibraryService(workspace, '.herald', new RecordingLogger());
    assert.equal(service.view().pages.length, 4);
    fs.writeFileSync(path.join(workspace, '.herald', 'onboarding.md'), '---\ntitle: Onboarding\n---\n\n# Onboarding\n\nRead the README first.\n');
    let changes = 0;
    service.onDidChange(() => changes++);
    service.reload();
    assert.equal(service.view().pages.length, 5);
    assert.ok(changes > 0);
    assert.equal(new LibraryService(undefined, '.herald', new RecordingLogger()).view().message, 'Open a folder to use a knowledge library.');
  });
});
