/**
 * A run that hands over its store writes (`deferWrites`, as a pool worker runs it): the request
 * is decided and returned before the memo and pins reach the shared store, another process
 * finds them once the handed-over write ran, and the stash's originals are written before the
 * run returns either way.
 */
import { strict as assert } from 'node:assert';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { parseRequest, serializeRequest } from '../../../src/core/chat';
import type { ChatRequest } from '../../../src/core/chat/types';
import { MessageMemo, Pipeline, SessionStateStore } from '../../../src/core/pipeline';
import { findMarkers } from '../../../src/core/stash/marker';
import { FileBlobStore, Stash } from '../../../src/core/stash';
import { createStrategies } from '../../../src/core/strategies';
import { FolderStateStore } from '../../../src/core/store/folderStateStore';

const KEY = new Uint8Array(32).fill(7);

function log(lines: number, salt: string): string {
  return Array.from({ length: lines }, (_, line) => `2026-03-01T10:${String(line % 60).padStart(2, '0')}:00Z ${line % 53 === 0 ? 'ERROR' : 'INFO'} worker-${line % 5} job ${line} ${salt} took ${(line * 31) % 700} ms`).join('\n');
}

/** A session of tool calls whose outputs are logs, `turns` results long. */
function session(turns: number): ChatRequest {
  const messages: unknown[] = [{ role: 'user', content: 'Find why the nightly job fails.' }];
  for (let turn = 0; turn < turns; turn++) {
    messages.push({ role: 'assistant', content: [{ type: 'tool_use', id: `toolu_${turn}`, name: 'Bash', input: { command: `cat run${turn}.log` } }] });
    messages.push({ role: 'user', content: [{ type: 'tool_result', tool_use_id: `toolu_${turn}`, content: log(600, `run${turn}`) }] });
  }
  return parseRequest({ model: 'claude-sonnet-4-5', max_tokens: 100, messages }, 'anthropic');
}

describe('pipeline: store writes handed over to the caller', function () {
  this.timeout(60_000);
  let folder: string;
  beforeEach(() => (folder = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-deferred-'))));
  afterEach(() => fs.rmSync(folder, { recursive: true, force: true }));

  /** A pipeline as a fresh process builds it over the shared folder: nothing in memory. */
  const process = (): Pipeline => {
    const store = new FolderStateStore(path.join(folder, 'state'));
    return new Pipeline(createStrategies(), {}, { stash: new Stash({ store: new FileBlobStore(path.join(folder, 'stash')), key: KEY }), memo: new MessageMemo(undefined, store), state: new SessionStateStore(undefined, store) });
  };

  it('returns the decided request before the memo and pins are written; another process finds them once the write ran', async () => {
    const writer = process();
    let write: (() => Promise<void>) | undefined;
    const first = await writer.run(session(2), { deferWrites: (given) => (write = given) });
    assert.ok(write, 'the run handed over its writes');
    assert.ok(first.tokensAfter < first.tokensBefore, 'the logs were elided');
    // The originals behind the markers were written before the run returned.
    const handles = findMarkers(JSON.stringify(serializeRequest(first.request))).map((marker) => marker.handle);
    assert.ok(handles.length > 0);
    const reader = new Stash({ store: new FileBlobStore(path.join(folder, 'stash')), key: KEY });
    for (const handle of handles) assert.ok((await reader.retrieve(handle)) !== undefined, `${handle} is in the stash already`);

    const next = session(3);
    // (This reader's own writes are handed over and dropped: it leaves the store as it found it.)
    const before = await process().run(next, { deferWrites: () => undefined });
    assert.equal(before.replayedMessages, 0, 'nothing decided is in the store yet');
    await write!();
    const after = await process().run(next);
    assert.ok(after.replayedMessages >= 4, `the history the first run decided is replayed (${after.replayedMessages})`);
    // And replayed as the writer decided it: what the provider already cached.
    // (As JSON, as the provider gets them: an entry read back has no undefined fields.)
    assert.equal(JSON.stringify(after.request.messages.slice(0, 4)), JSON.stringify(first.request.messages.slice(0, 4)));
  });

  it('without deferWrites the run writes before it returns', async () => {
    await process().run(session(2));
    const after = await process().run(session(3));
    assert.ok(after.replayedMessages >= 4, `replayed ${after.replayedMessages}`);
  });
});
