/**
 * Keeps the chat's chosen Herald model across a window reload (see chosenModel.ts for why VS Code
 * forgets it). Herald learns the choice from each `@herald` request (its `request.model`) and
 * from each request Copilot's chat sends to a Herald model. The choice remembered when the window
 * started is chosen again, once, with VS Code's "Change Model" command, as soon as Herald's models
 * are listed beside a default model (VS Code finds the chosen model only in a list that has a
 * default), unless the chat was used in this window before. Where this VS Code has no such
 * command, Herald says so, and how to pick the model again.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import { describeError } from '../../core/errors';
import { CHOSEN_MODEL_KEY, modelToRestore, readChosenModel, type ChosenModel } from './chosenModel';

/** VS Code's command that sets the model of every chat input (chatExecuteActions.ts, `ChangeChatModelAction`). */
export const CHANGE_MODEL_COMMAND = 'workbench.action.chat.changeModel';

export class ChosenChatModel {
  /** Done (or given up) for this window: the chat used a model, or Herald chose the remembered one. */
  private settled = false;
  /** The choice as the last window left it. */
  private readonly atStart: ChosenModel | undefined;

  constructor(
    private readonly state: vscode.Memento,
    private readonly logger: Logger,
    private readonly heraldVendor: string,
  ) {
    this.atStart = readChosenModel(state.get(CHOSEN_MODEL_KEY));
  }

  /** The chat used `model`: remember it (a model of another vendor too, so a deliberate switch away is kept). */
  observe(model: ChosenModel): void {
    // The user is at work in this window: the remembered choice is not imposed on them any more.
    this.settled = true;
    const current = readChosenModel(this.state.get(CHOSEN_MODEL_KEY));
    if (current && current.vendor === model.vendor && current.id === model.id) return;
    void this.state.update(CHOSEN_MODEL_KEY, { vendor: model.vendor, id: model.id, family: model.family, name: model.name });
  }

  /**
   * After a listing of every provider's models: once a default model is among them, choose the
   * remembered Herald model again (once per window).
   */
  async restore(listedIds: readonly string[], defaultListed: boolean): Promise<void> {
    if (this.settled || !defaultListed) return;
    this.settled = true;
    const chosen = modelToRestore(this.atStart, this.heraldVendor, listedIds);
    if (!chosen) return;
    try {
      const available = new Set(await vscode.commands.getCommands(true));
      if (!available.has(CHANGE_MODEL_COMMAND)) throw new Error(`this VS Code has no "${CHANGE_MODEL_COMMAND}" command`);
      await vscode.commands.executeCommand(CHANGE_MODEL_COMMAND, { vendor: chosen.vendor, id: chosen.id, family: chosen.family });
      this.logger.info('chat-model-restored', `Herald: chose "${chosen.name}" again as the chat's model (VS Code falls back to its default model on a reload while an extension's models are still being listed)`);
    } catch (error) {
      this.logger.warn('chat-model-not-restored', `Herald: could not choose "${chosen.name}" again as the chat's model: ${describeError(error)}`);
      void vscode.window.showWarningMessage(`Herald: after the reload VS Code may have switched the chat to its default model, so requests would go out without Herald. Pick "${chosen.name}" again in the chat's model picker.`);
    }
  }
}
