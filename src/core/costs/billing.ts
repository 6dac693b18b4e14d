/**
 * How a forward target bills, so each request is reported in the unit the user pays.
 *
 * A model served by GitHub Copilot (VS Code's `vscode.lm` vendor `copilot`) bills in premium
 * requests. microsoft/vscode-copilot-chat marks every request another extension sends as
 * user-initiated: `src/extension/conversation/vscode-node/languageModelAccess.ts` passes
 * `userInitiatedRequest: !!extensionId` (the caller's extension id), which
 * `src/extension/prompt/node/chatMLFetcher.ts` sends as `X-Initiator: user`. Copilot's own agent
 * loop (`src/extension/intents/node/toolCallingLoop.ts`) marks only its first iteration so. Each
 * request Herald sends to such a model (each round of an agent step, each Herald retrieve round,
 * each library plan) is therefore one premium request, times the model's multiplier.
 *
 * The multiplier itself is not available: Copilot publishes it on its provider's
 * `LanguageModelChatInformation` (`multiplier`, `multiplierNumeric`), but the `LanguageModelChat`
 * an extension gets from `vscode.lm.selectChatModels()` carries no such field. Herald counts
 * requests and links to GitHub's table instead of inventing a number.
 */

/** What the target bills in. */
export type BillingKind = 'premium-requests' | 'tokens' | 'unknown';

/** The `vscode.lm` vendor of GitHub Copilot's own models. */
export const COPILOT_VENDOR = 'copilot';

/** GitHub's page with the premium-request multiplier of each model. */
export const PREMIUM_MULTIPLIER_URL = 'https://docs.github.com/en/copilot/concepts/billing/copilot-requests';

/** A `vscode.lm` model's billing, from its vendor. */
export function billingOfVendor(vendor: string): BillingKind {
  return vendor === COPILOT_VENDOR ? 'premium-requests' : 'unknown';
}

/** The multiplier a model object exposes, when a future VS Code passes it through; undefined today. */
export function exposedMultiplier(model: unknown): number | undefined {
  const value = (model as { multiplierNumeric?: unknown } | null)?.multiplierNumeric;
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** One line for a model picker entry: what a request to it costs the user. */
export function billingNote(kind: BillingKind, multiplier?: number): string {
  switch (kind) {
    case 'premium-requests':
      return `Billed by GitHub Copilot: every request Herald sends (each agent step, each Herald retrieve round) counts as one premium request${multiplier !== undefined ? ` × ${multiplier}` : ' × the model\'s multiplier'}. See ${PREMIUM_MULTIPLIER_URL}.`;
    case 'tokens':
      return 'Billed by the token by your provider; Herald reports the provider\'s own usage figures and prices them with herald.prices.';
    default:
      return 'Billed by the extension that provides this model; Herald cannot see its price.';
  }
}
