/**
 * What get_context, read_page and the library checks need from the host, kept in one place:
 * the judge's memory (persisted in the extension's global storage, so a verdict confirmed
 * once is not asked again after a restart), the reader's name (private notes go only to their
 * owner), and the embedding model (loaded once per folder). Pure Node (no `vscode`).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { GetContextDependencies } from '../../core/knowledge/getContext';
import { JudgeMemory, type JudgeMode } from '../../core/knowledge/judge';
import type { Logger, ModelPort } from '../../core/ports';
import type { Embedder } from '../../core/relevance/types';
import { describeError } from '../../core/errors';
import { writeFileAtomic } from '../../core/files';

export const JUDGE_MEMORY_FILE = 'judge-memory.json';

export interface KnowledgeSupportOptions {
  /** The extension's global storage folder. */
  readonly storageFolder: string;
  readonly logger: Logger;
  /** Loads an embedding model folder (the ONNX embedder in the extension). */
  readonly loadEmbedder: (folder: string) => Promise<Embedder>;
  /** The retrieval model Herald ships, used when the user configured no model folder. */
  readonly bundledFolder?: string;
  /** The reader's name; default: `git config user.name` in the workspace. */
  readonly viewer?: () => string | undefined;
}

/** What one get_context call is asked with, besides the task. */
export interface ContextRequestSettings {
  readonly judgeMode: JudgeMode;
  /** The usable embedding model folder, or undefined. */
  readonly embeddingFolder: string | undefined;
  /** The chat's own model: it plans and, when the judge is on, judges. */
  readonly model?: ModelPort;
  readonly signal?: AbortSignal;
}

export class KnowledgeSupport {
  private memory: JudgeMemory | undefined;
  private embedderFolder: string | undefined;
  private embedderLoading: Promise<Embedder | undefined> | undefined;

  constructor(private readonly options: KnowledgeSupportOptions) {}

  /** The judge's memory, read from storage on first use; an unreadable file starts a fresh memory with a warning. */
  judgeMemory(): JudgeMemory {
    if (this.memory) return this.memory;
    const file = path.join(this.options.storageFolder, JUDGE_MEMORY_FILE);
    try {
      this.memory = fs.existsSync(file) ? JudgeMemory.fromJSON(JSON.parse(fs.readFileSync(file, 'utf8'))) : new JudgeMemory();
    } catch (error) {
      this.options.logger.warn('judge-memory-unreadable', `Herald: ${file} could not be read (${describeError(error)}); the judge starts with an empty memory`);
      this.memory = new JudgeMemory();
    }
    return this.memory;
  }

  /** Writes the judge's memory (to a temporary file first, so a crash never leaves half a file). */
  saveJudgeMemory(): void {
    if (!this.memory) return;
    const file = path.join(this.options.storageFolder, JUDGE_MEMORY_FILE);
    try {
      writeFileAtomic(file, JSON.stringify(this.memory.toJSON()));
    } catch (error) {
      this.options.logger.warn('judge-memory-unsaved', `Herald: the judge's memory could not be saved to ${file}: ${describeError(error)}`);
    }
  }

  /**
   * The embedder of a folder (the user's; without one, the shipped model), loaded once; a
   * folder that fails to load is reported and skipped (lexical relevance).
   */
  embedder(userFolder: string | undefined): Promise<Embedder | undefined> {
    const folder = userFolder ?? this.options.bundledFolder;
    if (!folder) return Promise.resolve(undefined);
    if (folder !== this.embedderFolder || !this.embedderLoading) {
      this.embedderFolder = folder;
      this.embedderLoading = this.options.loadEmbedder(folder).catch((error: unknown) => {
        this.options.logger.warn('embedding-model-failed', `Herald: the embedding model in ${folder} could not be loaded (${describeError(error)}); the library uses lexical relevance`);
        return undefined;
      });
    }
    return this.embedderLoading;
  }

  /** The reader's name, for private notes. */
  viewer(): string | undefined {
    return this.options.viewer?.();
  }

  /** Everything getContext takes from the host for one call. */
  async contextDependencies(request: ContextRequestSettings, logger: Logger): Promise<GetContextDependencies> {
    const embedder = await this.embedder(request.embeddingFolder);
    const viewer = this.viewer();
    return {
      logger,
      judgeMode: request.judgeMode,
      judgeMemory: this.judgeMemory(),
      ...(request.signal ? { signal: request.signal } : {}),
      ...(request.model ? { model: request.model } : {}),
      ...(request.model && request.judgeMode !== 'off' ? { judgeModel: request.model } : {}),
      ...(embedder ? { embedder } : {}),
      ...(viewer ? { viewer } : {}),
    };
  }
}

/** The user's name from git (`git config user.name`) in a folder, or undefined. */
export function gitUserName(folder: string | undefined): string | undefined {
  try {
    const name = execFileSync('git', ['config', 'user.name'], { cwd: folder, encoding: 'utf8', timeout: 2000, stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    return name.length > 0 ? name : undefined;
  } catch {
    // No git, or no name configured: private notes stay private.
    return undefined;
  }
}
