/**
 * When Herald marks one of its models as the chat's default, and which one (see
 * defaultChatModel.ts for why). Pure: `vscode` types only.
 */
import type * as vscode from 'vscode';

/** After Copilot Chat activates, how long its models may take to appear before Herald decides there are none (sign-in, entitlement). */
export const COPILOT_GRACE_MS = 15_000;

/** A model entry with the two proposed fields VS Code reads. */
export type ModelEntry = vscode.LanguageModelChatInformation & { readonly isDefault?: boolean; readonly isUserSelectable?: boolean };

/**
 * The entries with Herald's default marked, when Herald offers one: the first entry that is not a
 * Copilot-hosted model (endpoints come first), shown in the picker. Pure.
 */
export function markDefault(entries: readonly vscode.LanguageModelChatInformation[], offer: boolean): ModelEntry[] {
  if (!offer) return [...entries];
  const index = entries.findIndex((entry) => !entry.id.startsWith('lm:copilot/'));
  return entries.map((entry, position) => (position === index ? { ...entry, isDefault: true, isUserSelectable: true } : entry));
}

/** Whether Herald offers a default: only once it knows that nothing else does. Pure. */
export function shouldOffer(state: { readonly copilotModels: number; readonly copilotInstalled: boolean; readonly copilotActiveForMs: number | undefined }): boolean {
  if (state.copilotModels > 0) return false;
  if (!state.copilotInstalled) return true;
  // Copilot Chat is installed: it provides the default once signed in. Wait until it has had time to list its models.
  return state.copilotActiveForMs !== undefined && state.copilotActiveForMs >= COPILOT_GRACE_MS;
}

