/**
 * The `herald` vendor's LanguageModelChatProvider: one "Herald · <name>" model per model VS Code
 * offers (Herald's own excluded) and per endpoint the user added. Each request is converted to
 * the neutral model, optimized, forwarded and streamed back by {@link runRequestFlow}.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../core/ports';
import type { DecisionLog } from '../decisions/decisionLog';
import type { ForwardTarget, ProviderUsage } from '../../core/flow/forwardTarget';
import { LanguageModelTarget, RememberedLanguageModelTarget } from './languageModelTarget';
import { rememberedModels, rememberModels } from './rememberedModels';
import { fromVscode, type PartKit, type VscodeMessageLike } from './messageConversion';
import { recordOfFailure, runRequestFlow } from '../../core/flow/requestFlow';
import type { Optimizer } from '../optimizer/optimizer';
import type { HeraldSettings } from '../settings/settingsSchema';
import { describeError } from '../../core/errors';
import { billingNote } from '../../core/costs/billing';
import { withCost, type TurnBillingFacts } from '../decisions/requestCost';
import { OriginalBills } from '../decisions/originalBills';
import type { ChatRequest } from '../../core/chat/types';
import { HERALD_ORIGIN_OPTION, providerInformation, targetOrder, forwardedModelOptions } from './modelInformation';
import { fromTheChat } from './chosenModel';
import { isThinkingDescriptor, type ThinkingDescriptor } from '../endpoints/endpointWire';

type ThinkingPartConstructor = new (value: string, id?: string, metadata?: Record<string, unknown>) => unknown;

/**
 * An endpoint's thinking block as VS Code's thinking part, its signature in the metadata, so
 * Copilot keeps it in the conversation and the next request gives it back
 * (microsoft/vscode-copilot-chat `extChatEndpoint.ts` reads `LanguageModelThinkingPart`s of an
 * extension's answer, and sends them back with their metadata). Left out where this VS Code has
 * no thinking part class: never turned into text.
 */
function thinkingPart(descriptor: ThinkingDescriptor): unknown {
  let ThinkingPart: ThinkingPartConstructor | undefined;
  try {
    ThinkingPart = (vscode as unknown as { LanguageModelThinkingPart?: ThinkingPartConstructor }).LanguageModelThinkingPart;
  } catch {
    // A proposed API this VS Code guards: no thinking part to hand over.
  }
  if (!ThinkingPart) return undefined;
  const { text, signature, redactedData } = descriptor.heraldThinking;
  return new ThinkingPart(text, undefined, { ...(signature ? { signature } : {}), ...(redactedData ? { redactedData } : {}) });
}

export const HERALD_VENDOR = 'herald';

export interface ProviderServices {
  readonly kit: PartKit;
  readonly log: DecisionLog;
  readonly logger: Logger;
  settings(): HeraldSettings;
  optimizer(): Optimizer;
  /** Forward targets for the configured endpoints. */
  endpointTargets(): readonly ForwardTarget[];
  /** Whether "Herald · …" entries for Copilot-hosted models are listed (the user has seen what they cost). */
  copilotHostedListed(): boolean;
  /** Where the entries for other providers' models are remembered between windows (the extension's global state). */
  readonly memory?: { get(): unknown; set(value: unknown): void };
  /** Copilot's chat sent a request to this Herald model: it is the chat's chosen model. */
  chatModelUsed?(model: { vendor: string; id: string; family: string; name: string }): void;
}

export class HeraldChatProvider implements vscode.LanguageModelChatProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;
  /** Other providers' models: remembered from the last window until `vscode.lm` first answers, then as it lists them. */
  private languageModelTargets: ForwardTarget[];
  private signature = '';
  private requestCounter = 0;
  private refreshing: Promise<boolean> | undefined;
  /** What each target's provider would have billed for the originals without Herald (its cache, request by request). */
  private originalBills: OriginalBills | undefined;

  constructor(private readonly services: ProviderServices) {
    this.languageModelTargets = rememberedModels(services.memory?.get()).map((information) => new RememberedLanguageModelTarget(information, services.kit));
  }

  /** Re-reads the models VS Code offers; tells VS Code only when Herald's list really changed (no event loop). Resolves to whether VS Code listed its models. */
  refresh(): Promise<boolean> {
    this.refreshing ??= (async () => {
      let listed = false;
      try {
        const models = await vscode.lm.selectChatModels();
        this.languageModelTargets = models.filter((model) => model.vendor !== HERALD_VENDOR).map((model) => new LanguageModelTarget(model, this.services.kit));
        this.services.memory?.set(rememberModels(this.languageModelTargets.map((target) => target.information)));
        listed = true;
      } catch (error) {
        // Right after start-up VS Code answers "Canceled"; the next models-changed event brings them.
        this.services.logger.info('models-not-ready', `Herald: could not list language models yet: ${describeError(error)}`);
      } finally {
        this.refreshing = undefined;
      }
      this.notifyIfChanged();
      return listed;
    })();
    return this.refreshing;
  }

  /** Call after the endpoints changed. */
  notifyIfChanged(): void {
    const signature = this.targets().map((target) => `${target.information.id}:${target.information.maxInputTokens}`).join('|');
    if (signature === this.signature) return;
    this.signature = signature;
    this.changed.fire();
  }

  /** Every target Herald offers: endpoints first, then other extensions' models, then Copilot-hosted ones once the user has seen what they cost. */
  targets(): ForwardTarget[] {
    const listed = this.services.copilotHostedListed();
    return targetOrder([...this.services.endpointTargets(), ...this.languageModelTargets]).filter((target) => listed || target.information.billing !== 'premium-requests');
  }

  /** Copilot-hosted models Herald could offer (listed or not). */
  copilotHostedTargets(): ForwardTarget[] {
    return this.languageModelTargets.filter((target) => target.information.billing === 'premium-requests');
  }

  provideLanguageModelChatInformation(): vscode.LanguageModelChatInformation[] {
    return this.targets().map((target) => providerInformation(target.information, billingNote(target.information.billing ?? 'unknown')));
  }

  async provideLanguageModelChatResponse(
    model: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const target = this.targets().find((candidate) => candidate.information.id === model.id);
    if (!target) throw new Error(`Herald: the model "${model.name}" is not available any more (its target ${model.id} is gone); pick another model.`);
    const settings = this.services.settings();
    const abort = new AbortController();
    const subscription = token.onCancellationRequested(() => abort.abort());
    if (token.isCancellationRequested) abort.abort();
    // Herald's own calls (the library's plan, the filter's check) say so in a model option that never leaves Herald.
    const origin = options.modelOptions?.[HERALD_ORIGIN_OPTION] === 'herald' ? 'herald' : 'caller';
    if (origin === 'caller' && fromTheChat(options.modelOptions)) this.services.chatModelUsed?.({ vendor: HERALD_VENDOR, id: model.id, family: model.family, name: model.name });
    const modelOptions = forwardedModelOptions(options.modelOptions, target.information);
    const request = fromVscode(
      messages as readonly VscodeMessageLike[],
      options.tools as readonly { name: string; description: string; inputSchema?: object }[] | undefined,
      this.services.kit,
      { ...(modelOptions ? { modelOptions } : {}), toolMode: options.toolMode },
      model.id,
      target.information.wireFormat,
    );
    const optimizer = this.services.optimizer();
    // The usage of each round as the provider reported it: the last one is the answer the caller got.
    const roundUsage: ProviderUsage[] = [];
    const facts = (): TurnBillingFacts => this.billingFacts(target, request, origin, roundUsage);
    try {
      const record = await runRequestFlow({
        id: `r${Date.now().toString(36)}-${(++this.requestCounter).toString(36)}`,
        request,
        target,
        optimize: settings.enabled ? (input, windowTokens, signal, targetKind, firstMarkerRisk) => optimizer.run(input, windowTokens, signal, undefined, targetKind, firstMarkerRisk) : undefined,
        loadTools: (sessionId, names) => optimizer.loadTools(sessionId, names),
        retrieve: (handle) => optimizer.stash.retrieve(handle),
        report: (chunk) => {
          if (chunk.type === 'usage') roundUsage.push(chunk.usage);
          else if (chunk.type === 'text') progress.report(new vscode.LanguageModelTextPart(chunk.text));
          else if (chunk.type === 'tool_call') progress.report(new vscode.LanguageModelToolCallPart(chunk.id, chunk.name, chunk.input));
          else if (chunk.type === 'other') {
            const part = isThinkingDescriptor(chunk.part) ? thinkingPart(chunk.part) : chunk.part;
            if (part !== undefined) progress.report(part as vscode.LanguageModelResponsePart);
          }
        },
        origin,
        signal: abort.signal,
        retrieveRounds: settings.retrieveRounds,
        logger: this.services.logger,
        countTokens: (input) => optimizer.tokens.countRequest(input),
        contentMode: settings.contentMode,
        afterResponse: (input, answer, sessionId) => optimizer.afterResponse(input, answer, sessionId),
      });
      this.services.log.add(withCost(record, settings.prices, facts()));
      this.services.logger.info('request-done', `Herald: ${record.model}: ${record.tokensBefore} → ${record.tokensAfter} tokens, ${record.retrievals} retrievals, ${Math.round(record.totalMs)} ms`);
    } catch (error) {
      const record = recordOfFailure(error);
      if (record) this.services.log.add(withCost(record, settings.prices, facts()));
      this.services.logger.error('target-failed', `Herald: ${target.information.name} failed: ${describeError(error)}`);
      // The target's own message reaches the user unchanged.
      throw error;
    } finally {
      subscription.dispose();
    }
  }

  /**
   * What the record alone does not say about a turn's money: the original request as the
   * target's provider would have billed it without Herald (its cache model over this window's
   * originals; only the caller's requests to a target billed by the token, Herald's own calls
   * would not exist without Herald), and the output of the round whose answer the caller got.
   */
  private billingFacts(target: ForwardTarget, request: ChatRequest, origin: 'caller' | 'herald', roundUsage: readonly ProviderUsage[]): TurnBillingFacts {
    const answerOutputTokens = roundUsage.length > 0 ? roundUsage[roundUsage.length - 1]!.outputTokens : undefined;
    if (origin === 'herald' || target.information.billing !== 'tokens') return answerOutputTokens !== undefined ? { answerOutputTokens } : {};
    this.originalBills ??= new OriginalBills(this.services.optimizer().tokens);
    const original = this.originalBills.bill(target.information.id, target.information.wireFormat === 'anthropic' ? 'anthropic' : 'openai', request);
    return { ...(original ? { original } : {}), ...(answerOutputTokens !== undefined ? { answerOutputTokens } : {}) };
  }

  /**
   * Copilot's agent decides when to summarize the conversation from these counts and
   * `maxInputTokens` (microsoft/vscode-copilot-chat `src/extension/intents/node/agentIntent.ts`:
   * the prompt is rendered against a budget of 0.85 × (maxInputTokens − tool tokens), counted
   * with the model's tokenizer, which for an extension's model is this method). Herald reports the
   * original's size, counted by the target: what it will send depends on the whole conversation
   * (history is decided once, as it becomes history), and may be the original itself when the
   * optimizer is off or fails, so a smaller figure could let the conversation outgrow the
   * target's real window. Copilot therefore compacts no later than it would without Herald, and
   * each request it sends until then is smaller.
   */
  async provideTokenCount(model: vscode.LanguageModelChatInformation, text: string | vscode.LanguageModelChatRequestMessage, token: vscode.CancellationToken): Promise<number> {
    const target = this.targets().find((candidate) => candidate.information.id === model.id);
    const abort = new AbortController();
    const subscription = token.onCancellationRequested(() => abort.abort());
    try {
      const content = typeof text === 'string' ? text : textOfMessage(text);
      if (!target) return this.services.optimizer().tokens.count(content);
      return await target.countTokens(content, abort.signal);
    } finally {
      subscription.dispose();
    }
  }

  dispose(): void {
    this.changed.dispose();
  }
}

function textOfMessage(message: vscode.LanguageModelChatRequestMessage): string {
  return message.content
    .map((part) => {
      if (part instanceof vscode.LanguageModelTextPart) return part.value;
      if (part instanceof vscode.LanguageModelToolCallPart) return `${part.name} ${JSON.stringify(part.input)}`;
      if (part instanceof vscode.LanguageModelToolResultPart) return part.content.map((inner) => (inner instanceof vscode.LanguageModelTextPart ? inner.value : '')).join('');
      return '';
    })
    .join('\n');
}

