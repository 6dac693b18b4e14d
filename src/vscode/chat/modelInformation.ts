/**
 * What Herald tells VS Code about each of its models, and which model options go on to the
 * target. Pure (no `vscode`), so the model picker's text and the options filter are tested
 * under mocha.
 */
import type { ForwardTarget, TargetInformation } from '../../core/flow/forwardTarget';
import { billingOfVendor, COPILOT_VENDOR } from '../../core/costs/billing';

/**
 * The output limit Herald reports when the model object does not say. VS Code's
 * `LanguageModelChat` carries `maxInputTokens` but no output limit (the extension host builds it
 * from the provider's metadata without `maxOutputTokens`), so a figure here can only be a
 * conservative floor; Copilot's own wrapper of extension models makes the same choice
 * (`maxOutputTokens` 8192 because "the VS Code API doesn't expose max output tokens",
 * microsoft/vscode-copilot-chat `src/platform/endpoint/vscode-node/extChatEndpoint.ts`). 4,096
 * is the smallest limit of a current chat model, so Herald never claims room the target lacks.
 */
export const UNKNOWN_OUTPUT_LIMIT = 4096;

/** What `vscode.lm.selectChatModels()` gives for a model (the stable fields, and the proposed ones read when present). */
export interface LanguageModelLike {
  readonly id: string;
  readonly vendor: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly maxInputTokens: number;
}

/** A `vscode.lm` model as a forward target: its own family, its output limit when it exposes one, billing from its vendor. */
export function languageModelInformation(model: LanguageModelLike): TargetInformation {
  // The stable LanguageModelChat does not expose capabilities; the proposed field is read when present.
  const capabilities = (model as { capabilities?: { supportsToolCalling?: boolean; supportsImageToText?: boolean } }).capabilities;
  const output = (model as { maxOutputTokens?: unknown }).maxOutputTokens;
  return {
    id: `lm:${model.vendor}/${model.id}`,
    name: model.name,
    family: model.family,
    version: model.version,
    detail: `through ${model.vendor}`,
    maxInputTokens: model.maxInputTokens,
    maxOutputTokens: typeof output === 'number' && Number.isInteger(output) && output > 0 ? output : UNKNOWN_OUTPUT_LIMIT,
    toolCalling: capabilities?.supportsToolCalling ?? true,
    imageInput: capabilities?.supportsImageToText ?? false,
    billing: billingOfVendor(model.vendor),
  };
}

/** A model option Herald's own calls carry so the record says who asked; it never reaches a target. */
export const HERALD_ORIGIN_OPTION = 'heraldOrigin';

/** The fields of `vscode.LanguageModelChatInformation` Herald fills. */
export interface ProviderModelInformation {
  readonly id: string;
  readonly name: string;
  readonly family: string;
  readonly version: string;
  readonly detail?: string;
  readonly tooltip: string;
  readonly maxInputTokens: number;
  readonly maxOutputTokens: number;
  readonly capabilities: { readonly toolCalling: boolean | number; readonly imageInput: boolean };
  /**
   * Shown in the chat's model picker without a visit to Manage Models. VS Code 1.104 to 1.106
   * hide a third-party model whose information leaves this out (`languageModels.ts` of
   * microsoft/vscode keeps a model the user never toggled at the provider's `isUserSelectable`);
   * the extension host passes the field on from any provider, though the stable
   * `LanguageModelChatInformation` type does not declare it yet. A user who hides the entry
   * under Manage Models keeps it hidden: VS Code stores a choice that differs from this default.
   */
  readonly isUserSelectable: boolean;
}

/** A picker entry: what Herald does, where it forwards, and what each request costs the user. */
export function providerInformation(information: TargetInformation, billingNote: string): ProviderModelInformation {
  const premium = information.billing === 'premium-requests';
  return {
    id: information.id,
    name: `Herald · ${information.name}`,
    family: information.family,
    version: information.version,
    // The detail is what the picker shows beside the name: the cost unit first for a Copilot-hosted model.
    detail: premium ? `premium requests · ${information.detail ?? information.id}` : information.detail,
    tooltip: `Herald optimizes each request, then forwards it to ${information.name} (${information.detail ?? information.id}). ${billingNote}${premium ? ' Fewer tokens still help here: a fuller window, better answers, and later compaction by Copilot.' : ''}`,
    maxInputTokens: information.maxInputTokens,
    maxOutputTokens: information.maxOutputTokens,
    capabilities: { toolCalling: information.toolCalling, imageInput: information.imageInput },
    isUserSelectable: userSelectableByDefault(information),
  };
}

/**
 * Whether a Herald entry is in the picker from the start: an endpoint (the user added it to
 * Herald to use it) and a Copilot-hosted model (listed only after the user read what it costs and
 * chose to list it). A model another extension provides is wrapped without being asked for, so
 * it waits under Manage Models rather than doubling the picker's list.
 */
export function userSelectableByDefault(information: TargetInformation): boolean {
  return information.billing === 'tokens' || information.billing === 'premium-requests';
}

/** Endpoints first (billed by the token, reported from the provider's figures), then other extensions' models, then Copilot-hosted ones (premium requests). */
export function targetOrder(targets: readonly ForwardTarget[]): ForwardTarget[] {
  const rank = (target: ForwardTarget): number => (target.information.billing === 'tokens' ? 0 : target.information.billing === 'premium-requests' ? 2 : 1);
  return targets.map((target, index) => ({ target, index })).sort((a, b) => rank(a.target) - rank(b.target) || a.index - b.index).map((entry) => entry.target);
}

/**
 * The caller's model options as the target gets them: Herald's own marker removed, and, for a
 * model of another vendor than Copilot, the caller's internal `_…` options too (Copilot's agent
 * sends `_capturingTokenCorrelationId` and `_otelTraceContext` to every extension model,
 * microsoft/vscode-copilot-chat `src/platform/endpoint/vscode-node/extChatEndpoint.ts`; only
 * Copilot's own provider reads them). Endpoints filter further by what their API documents.
 */
export function forwardedModelOptions(options: Readonly<Record<string, unknown>> | undefined, target: TargetInformation): Record<string, unknown> | undefined {
  if (!options) return undefined;
  const toCopilot = target.id.startsWith(`lm:${COPILOT_VENDOR}/`);
  const kept = Object.fromEntries(Object.entries(options).filter(([name]) => name !== HERALD_ORIGIN_OPTION && (toCopilot || !name.startsWith('_'))));
  return Object.keys(kept).length > 0 ? kept : undefined;
}
