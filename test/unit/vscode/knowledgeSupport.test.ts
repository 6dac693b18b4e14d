import { strict as assert } from 'node:assert';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { JudgeCandidate } from '../../../src/core/knowledge/judge';
import { RecordingLogger, type ModelPort } from '../../../src/core/ports';
import type { Embedder } from '../../../src/core/relevance/types';
import { gitUserName, JUDGE_MEMORY_FILE, KnowledgeSupport } from '../../../src/vscode/knowledge/knowledgeSupport';

const fakeEmbedder: Embedder = { name: 'fake', dimension: 2, embed: async (texts) => texts.map(() => new Float32Array([1, 0])) };
const model: ModelPort = { name: 'chat', complete: async () => '{}' };

describe('knowledge support of the host', () => {
  let storage: string;
  beforeEach(() => {
    storage = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-knowledge-'));
  });
  afterEach(() => fs.rmSync(storage, { recursive: true, force: true }));

  it('persists the judge memory in storage and reads it back in a new session', () => {
    const first = new KnowledgeSupport({ storageFolder: storage, logger: new RecordingLogger(), loadEmbedder: async () => fakeEmbedder });
    const candidate = { id: 'refunds#s1', kind: 'section', label: 'Refund policy', text: 'Refunds within 30 days', contentHash: 'h1' } as unknown as JudgeCandidate;
    first.judgeMemory().record('issue a refund', candidate, { use: 0.9, different: 0.1 });
    first.saveJudgeMemory();
    assert.ok(fs.existsSync(path.join(storage, JUDGE_MEMORY_FILE)));
    const second = new KnowledgeSupport({ storageFolder: storage, logger: new RecordingLogger(), loadEmbedder: async () => fakeEmbedder });
    assert.equal(second.judgeMemory().size, 1);
  });

  it('starts an empty memory with a warning when the stored one is unreadable', () => {
    fs.writeFileSync(path.join(storage, JUDGE_MEMORY_FILE), '{"version": 9}');
    const logger = new RecordingLogger();
    const support = new KnowledgeSupport({ storageFolder: storage, logger, loadEmbedder: async () => fakeEmbedder });
    assert.equal(support.judgeMemory().size, 0);
    assert.equal(logger.lines[0]?.code, 'judge-memory-unreadable');
  });

  it('loads the embedder once per folder and falls back to none when it fails', async () => {
    let loads = 0;
    const logger = new RecordingLogger();
    const support = new KnowledgeSupport({ storageFolder: storage, logger, loadEmbedder: async (folder) => { loads++; if (folder === '/broken') throw new Error('no model.onnx'); return fakeEmbedder; } });
    assert.equal(await support.embedder('/model'), fakeEmbedder);
    assert.equal(await support.embedder('/model'), fakeEmbedder);
    assert.equal(loads, 1);
    assert.equal(await support.embedder('/broken'), undefined);
    assert.equal(logger.lines.at(-1)?.code, 'embedding-model-failed');
    assert.equal(await support.embedder(undefined), undefined);
  });

  it('passes model, judge only when the judge is on, memory, embedder and viewer to get_context', async () => {
    const support = new KnowledgeSupport({ storageFolder: storage, logger: new RecordingLogger(), loadEmbedder: async () => fakeEmbedder, viewer: () => 'Ada Lovelace' });
    const off = await support.contextDependencies({ judgeMode: 'off', embeddingFolder: '/model', model }, new RecordingLogger());
    assert.equal(off.model, model);
    assert.equal(off.judgeModel, undefined);
    assert.equal(off.judgeMode, 'off');
    assert.equal(off.embedder, fakeEmbedder);
    assert.equal(off.viewer, 'Ada Lovelace');
    assert.equal(off.judgeMemory, support.judgeMemory());
    const gate = await support.contextDependencies({ judgeMode: 'gate', embeddingFolder: undefined, model }, new RecordingLogger());
    assert.equal(gate.judgeModel, model);
    assert.equal(gate.embedder, undefined);
  });

  it('reads the viewer from git config in the workspace', () => {
    const repository = path.join(storage, 'repo');
    fs.mkdirSync(repository);
    execFileSync('git', ['init', '-q'], { cwd: repository });
    execFileSync('git', ['config', 'user.name', 'Grace Hopper'], { cwd: repository });
    assert.equal(gitUserName(repository), 'Grace Hopper');
  });
});
