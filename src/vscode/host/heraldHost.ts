/**
 * Everything the contributions share, built once at activation: settings (re-read on change),
 * the stash in the extension's global storage, the optimizer, the session's decision log,
 * the library and the endpoints. Contributions receive this object and register themselves.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Logger, ModelPort } from '../../core/ports';
import { bundledModelFolder } from '../../core/relevance/embedding/bundledModel';
import { loadEmbedder } from '../../core/relevance/embedding/loadEmbedder';
import { FileBlobStore } from '../../core/stash/blobStore';
import { Stash } from '../../core/stash/stash';
import { bundledEnvironment } from '../../core/strategies/environment';
import { createStrategies, STRATEGY_ORDER } from '../../core/strategies/index';
import { FileThresholdStore, type ThresholdStore } from '../../core/filter/thresholds';
import type { Strategy } from '../../core/pipeline/types';
import { DecisionLog } from '../decisions/decisionLog';
import { DECISION_STORE_FILE, DecisionStore } from '../decisions/decisionStore';
import { usableEmbeddingFolder } from '../embedding/embeddingFolder';
import { gitUserName, KnowledgeSupport } from '../knowledge/knowledgeSupport';
import { languageModelPort } from '../knowledge/languageModelPort';
import { LibraryService } from '../library/libraryService';
import { Optimizer } from '../optimizer/optimizer';
import { warmUpSoon } from '../optimizer/warmUpSoon';
import { readSettings, type HeraldSettings } from '../settings/settingsSchema';
import { userStrategySettings } from '../settings/strategySettingNames';
import { outputLogger } from './outputLogger';
import { describeError } from '../../core/errors';

const STASH_KEY_SECRET = 'herald.stashKey';

export class HeraldHost implements vscode.Disposable {
  readonly log = new DecisionLog();
  readonly library: LibraryService;
  private currentSettings: HeraldSettings;
  private readonly settingsListeners = new Set<(settings: HeraldSettings) => void>();
  private readonly disposables: vscode.Disposable[] = [];
  private thresholds: ThresholdStore | undefined;

  private constructor(
    readonly context: vscode.ExtensionContext,
    readonly channel: vscode.LogOutputChannel,
    readonly logger: Logger,
    readonly stash: Stash,
    readonly optimizer: Optimizer,
    settings: HeraldSettings,
    readonly knowledge: KnowledgeSupport,
    private usableEmbedding: string | undefined,
  ) {
    this.currentSettings = settings;
    // The index lives in the extension's storage, one file per library root, never in the workspace.
    const indexFolder = path.join(context.globalStorageUri.fsPath, 'library-index');
    this.library = new LibraryService(workspaceRoot(), settings.libraryFolder, logger, Date.now, (root) => path.join(indexFolder, `${createHash('sha256').update(root).digest('hex').slice(0, 16)}.json`));
    // The decisions survive a window reload: a bounded history in the extension's storage.
    this.disposables.push(new DecisionStore(path.join(context.globalStorageUri.fsPath, DECISION_STORE_FILE), this.log, logger));
    // The first request through Herald should not be the one that loads and compiles the pipeline.
    this.disposables.push(warmUpSoon(optimizer, logger, () => this.currentSettings.enabled));
    this.disposables.push(
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration('herald')) this.reloadSettings();
      }),
      vscode.workspace.onDidChangeWorkspaceFolders(() => this.library.configure(workspaceRoot(), this.currentSettings.libraryFolder)),
      vscode.workspace.onDidSaveTextDocument((document) => void this.checkSavedPage(document.uri)),
    );
  }

  static async create(context: vscode.ExtensionContext): Promise<HeraldHost> {
    const channel = vscode.window.createOutputChannel('Herald', { log: true });
    context.subscriptions.push(channel);
    const logger = outputLogger(channel);
    const settings = loadSettings(logger);
    // The stash key persists so handles in old conversations keep working after a restart.
    let key = await context.secrets.get(STASH_KEY_SECRET);
    if (!key) {
      key = randomBytes(32).toString('hex');
      await context.secrets.store(STASH_KEY_SECRET, key);
    }
    const stash = new Stash({
      store: new FileBlobStore(path.join(context.globalStorageUri.fsPath, 'stash')),
      key: Buffer.from(key, 'hex'),
      ttlMs: settings.stashTtlDays * 24 * 3600 * 1000,
      maxBytes: settings.stashMaxMegabytes * 1024 * 1024,
      onProblem: (code, message) => logger.warn(code, message),
    });
    const embeddingFolder = usableEmbeddingFolder(settings.embeddingModelFolder, logger);
    const strategies = buildStrategies(context, embeddingFolder, logger);
    const optimizer = new Optimizer(strategies, stash, logger, settings);
    const assets = bundledEnvironment(path.join(context.extensionPath, 'dist')).assets;
    let viewer: string | undefined | null = null;
    const knowledge = new KnowledgeSupport({
      storageFolder: context.globalStorageUri.fsPath,
      logger,
      loadEmbedder: (folder) => loadEmbedder(folder, assets ? { assets } : {}),
      bundledFolder: bundledModelFolder(path.join(context.extensionPath, 'dist')),
      // Asked once per session: private notes go to their owner only.
      viewer: () => (viewer === null ? (viewer = gitUserName(workspaceRoot())) : viewer),
    });
    return new HeraldHost(context, channel, logger, stash, optimizer, settings, knowledge, embeddingFolder);
  }

  settings(): HeraldSettings {
    return this.currentSettings;
  }

  /** The filter's learned thresholds per call site, kept in global storage. */
  filterThresholds(): ThresholdStore {
    this.thresholds ??= new FileThresholdStore(path.join(this.context.globalStorageUri.fsPath, 'filter-thresholds.json'));
    return this.thresholds;
  }

  /** The embedding model folder in use (checked), or undefined for lexical relevance. */
  embeddingFolder(): string | undefined {
    return this.usableEmbedding;
  }

  /** A library page was saved: check it for conflicts and overlaps (with a chat model only when the judge setting allows model calls). */
  private async checkSavedPage(uri: vscode.Uri): Promise<void> {
    if (uri.scheme !== 'file') return;
    try {
      const model = this.currentSettings.judgeMode === 'off' ? undefined : await firstChatModel();
      await this.library.checkSaved(uri.fsPath, model);
    } catch (error) {
      this.logger.warn('library-check-failed', `Herald: checking ${uri.fsPath} failed: ${describeError(error)}`);
    }
  }

  onDidChangeSettings(listener: (settings: HeraldSettings) => void): vscode.Disposable {
    this.settingsListeners.add(listener);
    return new vscode.Disposable(() => this.settingsListeners.delete(listener));
  }

  /** Re-reads the settings now (after Herald itself changed one) instead of waiting for the change event. */
  reloadSettings(): void {
    const previous = this.currentSettings;
    this.currentSettings = loadSettings(this.logger);
    try {
      // Strategies load the embedding model when they are built: a new folder means new strategies.
      if (previous.embeddingModelFolder !== this.currentSettings.embeddingModelFolder) {
        this.usableEmbedding = usableEmbeddingFolder(this.currentSettings.embeddingModelFolder, this.logger);
        this.optimizer.replaceStrategies(buildStrategies(this.context, this.usableEmbedding, this.logger), this.currentSettings);
      }
      else this.optimizer.configure(this.currentSettings);
    } catch (error) {
      this.logger.error('settings-rejected', `Herald: the new settings could not be applied: ${describeError(error)}`);
    }
    this.library.configure(workspaceRoot(), this.currentSettings.libraryFolder);
    for (const listener of this.settingsListeners) listener(this.currentSettings);
  }

  dispose(): void {
    for (const disposable of this.disposables) disposable.dispose();
  }
}

async function firstChatModel(): Promise<ModelPort | undefined> {
  const model = (await vscode.lm.selectChatModels()).find((candidate) => candidate.vendor !== 'herald');
  return model ? languageModelPort(model) : undefined;
}

function buildStrategies(context: vscode.ExtensionContext, embeddingFolder: string | undefined, logger: Logger): Strategy[] {
  // The build's dist/ holds the wasm files, the OCR worker and its model beside extension.js.
  const strategies = createStrategies({
    logger,
    ...bundledEnvironment(path.join(context.extensionPath, 'dist')),
    embeddingModelDir: embeddingFolder,
  });
  logger.info('strategies-loaded', `Herald: ${strategies.length} strategies available: ${strategies.map((strategy) => strategy.id).join(', ') || 'none'}`);
  return strategies;
}

function loadSettings(logger: Logger): HeraldSettings {
  const configuration = vscode.workspace.getConfiguration('herald');
  const { settings, problems } = readSettings((key) => (key === 'strategy' ? userStrategySettings(STRATEGY_ORDER, (name) => configuration.inspect(name)) : configuration.get(key)));
  for (const problem of problems) logger.warn('setting-invalid', `Herald: ${problem}`);
  return settings;
}

function workspaceRoot(): string | undefined {
  return vscode.workspace.workspaceFolders?.[0]?.uri.fsPath;
}
