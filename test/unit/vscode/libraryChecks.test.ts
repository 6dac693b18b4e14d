import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { RecordingLogger, type ModelPort } from '../../../src/core/ports';
import { LibraryService } from '../../../src/vscode/library/libraryService';

const SAMPLE = path.resolve(__dirname, '../../e2e/fixtures/sample-library');

const CONFLICTING = `---
title: Refund exceptions
type: rule
tags: [billing, refunds]
---

# Refund exceptions

Refunds are allowed within 14 days of purchase. After a downgrade the window restarts.
`;

describe('library checks, index file and activity in the host', () => {
  let workspace: string;
  let storage: string;
  beforeEach(() => {
    workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-library-checks-'));
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-library-storage-'));
    fs.cpSync(SAMPLE, path.join(workspace, '.herald'), { recursive: true });
  });
  afterEach(() => {
    fs.rmSync(workspace, { recursive: true, force: true });
    fs.rmSync(storage, { recursive: true, force: true });
  });

  it('checks a saved page against its neighbours and shows the conflict on the page in the Library view', async () => {
    const service = new LibraryService(workspace, '.herald', new RecordingLogger());
    const file = path.join(workspace, '.herald', 'billing', 'refund-exceptions.md');
    fs.writeFileSync(file, CONFLICTING);
    const flags = await service.checkSaved(file);
    assert.ok(flags.some((flag) => flag.kind === 'conflict' && flag.otherPageId.includes('refunds')), JSON.stringify(flags));
    const page = service.view().pages.find((candidate) => candidate.title === 'Refund exceptions')!;
    assert.ok(page.flags.some((flag) => flag.startsWith('conflict with Refund policy')), page.flags.join(' | '));
    assert.match(service.view().activity[0]!.text, /checked Refund exceptions: conflict with Refund policy/);
  });

  it('hands the model to the check and ignores files outside the library', async () => {
    const service = new LibraryService(workspace, '.herald', new RecordingLogger());
    const prompts: string[] = [];
    const model: ModelPort = { name: 'fake', complete: async (request) => { prompts.push(request.prompt); return '[]'; } };
    const file = path.join(workspace, '.herald', 'billing', 'refund-exceptions.md');
    fs.writeFileSync(file, CONFLICTING);
    await service.checkSaved(file, model);
    assert.ok(prompts.length > 0, 'the model was asked');
    assert.deepEqual(await service.checkSaved(path.join(workspace, 'README.md'), model), []);
  });

  it('saves the index in the given storage file so reloads are incremental', () => {
    const indexFile = path.join(storage, 'library-index.json');
    const service = new LibraryService(workspace, '.herald', new RecordingLogger(), Date.now, () => indexFile);
    assert.equal(service.reload()?.pages.length, 4);
    assert.ok(fs.existsSync(indexFile), 'the index was written to storage');
    assert.equal(fs.existsSync(path.join(workspace, '.herald', 'library-index.json')), false, 'nothing is written into the workspace');
    assert.equal(new LibraryService(workspace, '.herald', new RecordingLogger(), Date.now, () => indexFile).reload()?.pages.length, 4);
  });

  it('records "nothing found" with the nearest pages in the activity', () => {
    const service = new LibraryService(workspace, '.herald', new RecordingLogger());
    service.current();
    service.recordContext('get_context', 'tune the GPU kernel', { pages: [], tokens: 0, nothingFound: true, nearest: [{ title: 'Code review checklist' }] });
    assert.equal(service.view().activity[0]!.text, 'get_context "tune the GPU kernel": nothing found; nearest: Code review checklist');
    service.recordContext('@herald', 'refund', { pages: [1, 2], tokens: 90, nothingFound: false, nearest: [] });
    assert.equal(service.view().activity[0]!.text, '@herald "refund": 2 pages, 90 tokens');
  });
});
