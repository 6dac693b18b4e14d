/**
 * Strategies whose default in the editor differs from the core's (the gateway and the CLI keep
 * the core's). The manifest writes these defaults into `herald.strategy.<name>.enabled`, the
 * optimizer applies them when the user has not set the switch, and the README's table says so.
 * Pure (no `vscode`).
 */

export interface EditorDefault {
  readonly enabled: boolean;
  /** Why the editor differs, as the setting's description says it. */
  readonly why: string;
}

export const EDITOR_STRATEGY_DEFAULTS: Readonly<Record<string, EditorDefault>> = {
  // VS Code marks no retry: the chat's Retry (and an agent re-running the same step) sends the
  // exact request again, which is what semantic_cache answers without the model
  // (microsoft/vscode-copilot-chat passes extension models a fresh correlation id per request
  // and nothing else). In the editor an exact repeat is therefore never served unless asked for.
  semantic_cache: {
    enabled: false,
    why: "Off in VS Code by default: the chat's **Retry** sends the exact same request again and must reach the model, and VS Code does not mark a retry. Turn it on only if you want exact repeats answered from the cache.",
  },
};

/** Whether a strategy is on in the editor when the user has not said. */
export function editorDefaultEnabled(strategy: { readonly id: string; readonly defaultEnabled: boolean }): boolean {
  return EDITOR_STRATEGY_DEFAULTS[strategy.id]?.enabled ?? strategy.defaultEnabled;
}
