/**
 * A chat without Copilot. VS Code's chat needs a *default* model: without one the model picker
 * lists nothing (even enabled third-party models) and a participant's request ends with
 * "Language model unavailable" before the participant is called (VS Code 1.106,
 * extHostChatAgents2.ts `getModelForRequest`; chatInputPart.ts keeps the list only when a model
 * is marked default). Only Copilot marks one. So when no Copilot model exists, Herald marks its
 * first endpoint model as the default: the picker then lists the Herald models and @herald
 * answers through that endpoint. As soon as a Copilot model appears, the mark is withdrawn.
 *
 * `isDefault` and `isUserSelectable` belong to VS Code's proposed `chatProvider` API ("not being
 * finalized"); this VS Code reads them from any provider. Where a later VS Code ignores them,
 * nothing breaks: the picker stays as it was.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import { describeError } from '../../core/errors';
import { COPILOT_GRACE_MS, markDefault, shouldOffer } from './defaultModelRule';

/** Copilot Chat's extension id. */
export const COPILOT_CHAT_EXTENSION = 'GitHub.copilot-chat';

/** Decides, and re-decides as models come and go, whether Herald's first model is the chat's default. */
export class DefaultChatModel implements vscode.Disposable {
  private offering = false;
  private copilotActiveSince: number | undefined;
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChange = this.changed.event;
  private readonly disposables: vscode.Disposable[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly logger: Logger) {
    this.disposables.push(this.changed, vscode.lm.onDidChangeChatModels(() => void this.update()));
    // Models listed during activation come back "Canceled": decide a moment after start-up.
    this.later(2_500);
  }

  /** Whether Herald marks a model as the default now. */
  offers(): boolean {
    return this.offering;
  }

  /** Wraps the provider so its entries carry the mark, and VS Code re-reads them when the decision changes. */
  wrap<T extends vscode.LanguageModelChatProvider>(provider: T): vscode.LanguageModelChatProvider {
    const own = provider.onDidChangeLanguageModelChatInformation;
    const changed = new vscode.EventEmitter<void>();
    this.disposables.push(changed, this.onDidChange(() => changed.fire()), ...(own ? [own(() => changed.fire())] : []));
    return {
      onDidChangeLanguageModelChatInformation: changed.event,
      provideLanguageModelChatInformation: async (options, token) => markDefault((await provider.provideLanguageModelChatInformation(options, token)) ?? [], this.offering),
      provideLanguageModelChatResponse: (model, messages, options, progress, token) => provider.provideLanguageModelChatResponse(model, messages, options, progress, token),
      provideTokenCount: (model, text, token) => provider.provideTokenCount(model, text, token),
    };
  }

  /** Looks again: Copilot's models, and whether Copilot Chat is installed and active. */
  async update(): Promise<void> {
    const copilot = vscode.extensions.getExtension(COPILOT_CHAT_EXTENSION);
    if (copilot?.isActive && this.copilotActiveSince === undefined) this.copilotActiveSince = Date.now();
    let copilotModels: number;
    try {
      copilotModels = (await vscode.lm.selectChatModels({ vendor: 'copilot' })).length;
    } catch (error) {
      // Right after start-up VS Code answers "Canceled": try again shortly.
      this.logger.info('models-not-ready', `Herald: could not list Copilot's models yet: ${describeError(error)}`);
      this.later(3_000);
      return;
    }
    const activeFor = this.copilotActiveSince === undefined ? undefined : Date.now() - this.copilotActiveSince;
    const offer = shouldOffer({ copilotModels, copilotInstalled: copilot !== undefined, copilotActiveForMs: activeFor });
    // Copilot Chat installed but still deciding: look again when its grace time is over.
    if (!offer && copilotModels === 0 && copilot !== undefined) this.later(activeFor === undefined ? 5_000 : COPILOT_GRACE_MS - activeFor + 100);
    if (offer === this.offering) return;
    this.offering = offer;
    this.logger.info('default-model', offer ? 'Herald: no Copilot model: the first Herald model is the chat\'s default, so the picker lists the Herald models and @herald answers' : 'Herald: Copilot models are there: Herald no longer marks a default model');
    this.changed.fire();
  }

  private later(ms: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.update(), Math.max(100, ms));
  }

  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    for (const disposable of this.disposables) disposable.dispose();
  }
}
