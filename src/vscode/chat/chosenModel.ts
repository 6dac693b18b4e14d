/**
 * The chat's chosen model as Herald last saw it, and whether to choose it again after a window
 * reload. Pure (no `vscode`): chosenChatModel.ts reads and writes the state.
 *
 * Why: VS Code 1.106 restores the chat's model at start-up from a cached model list, then drops
 * the choice the first time any provider's models are re-read while the chosen model is not
 * among the models listed so far (`chatInputPart.ts`, `onDidChangeLanguageModels`: "the current
 * one is no longer available. Select a new one"), and stores the default model in its place.
 * An extension activates after start-up and its models are listed after the default vendor's,
 * so a Herald model chosen in the picker was replaced by the default on every reload, and
 * `@herald` and Copilot's agent were handed the plain model. No provider can be listed earlier
 * from the extension side, so Herald chooses the model again once its models are listed.
 */
import { z } from 'zod';

export const CHOSEN_MODEL_KEY = 'herald.chatModel';

const chosenSchema = z.object({ vendor: z.string().min(1), id: z.string().min(1), family: z.string(), name: z.string() });

export type ChosenModel = z.infer<typeof chosenSchema>;

/** The remembered choice, or none when the state is missing or damaged. */
export function readChosenModel(state: unknown): ChosenModel | undefined {
  const parsed = chosenSchema.safeParse(state);
  return parsed.success ? parsed.data : undefined;
}

/** Copilot Chat's own option on every request it sends to an extension's model: the request came from the chat. */
export const COPILOT_CHAT_OPTION = '_capturingTokenCorrelationId';

/** Whether a request to a Herald model came from the chat (Copilot's agent or ask mode), so its model is the chat's choice. */
export function fromTheChat(modelOptions: Readonly<Record<string, unknown>> | undefined): boolean {
  return modelOptions !== undefined && Object.prototype.hasOwnProperty.call(modelOptions, COPILOT_CHAT_OPTION);
}

/** The Herald model to choose again after a reload: the remembered choice when it is Herald's and Herald lists it; none otherwise. */
export function modelToRestore(chosen: ChosenModel | undefined, heraldVendor: string, listedIds: readonly string[]): ChosenModel | undefined {
  if (!chosen || chosen.vendor !== heraldVendor) return undefined;
  return listedIds.includes(chosen.id) ? chosen : undefined;
}
