/**
 * A forward target for a model VS Code already offers (`vscode.lm.selectChatModels()`):
 * Copilot's models, or any other extension's provider except Herald's own.
 */
import * as vscode from 'vscode';
import type { ChatRequest } from '../../core/chat/types';
import type { ForwardTarget, ResponseChunk, TargetInformation } from '../../core/flow/forwardTarget';
import { toVscodeMessages, toVscodeTools, type PartKit } from './messageConversion';
import { languageModelInformation } from './modelInformation';
import { modelSelectorOf } from './rememberedModels';

export class LanguageModelTarget implements ForwardTarget {
  readonly information: TargetInformation;

  constructor(private readonly model: vscode.LanguageModelChat, private readonly kit: PartKit) {
    this.information = informationOf(model);
  }

  async *send(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ResponseChunk> {
    const cancellation = tokenOf(signal);
    try {
      const options = request.options as { modelOptions?: Record<string, unknown>; toolMode?: vscode.LanguageModelChatToolMode; justification?: string };
      const tools = toVscodeTools(request);
      const response = await this.model.sendRequest(
        toVscodeMessages(request, this.kit) as vscode.LanguageModelChatMessage[],
        {
          ...(options.modelOptions ? { modelOptions: options.modelOptions } : {}),
          ...(tools.length > 0 ? { tools, toolMode: options.toolMode ?? vscode.LanguageModelChatToolMode.Auto } : {}),
          justification: 'Herald forwards the request you sent to a Herald model.',
        },
        cancellation.token,
      );
      for await (const part of response.stream) {
        if (part instanceof vscode.LanguageModelTextPart) yield { type: 'text', text: part.value };
        else if (part instanceof vscode.LanguageModelToolCallPart) yield { type: 'tool_call', id: part.callId, name: part.name, input: part.input };
        else yield { type: 'other', part };
      }
    } finally {
      cancellation.dispose();
    }
  }

  async countTokens(text: string, signal: AbortSignal): Promise<number> {
    const cancellation = tokenOf(signal);
    try {
      return await this.model.countTokens(text, cancellation.token);
    } finally {
      cancellation.dispose();
    }
  }
}

/** Herald's id for a VS Code model: its vendor and id, so two vendors' same-named models stay apart. */
export function targetIdOf(model: vscode.LanguageModelChat): string {
  return `lm:${model.vendor}/${model.id}`;
}

function informationOf(model: vscode.LanguageModelChat): TargetInformation {
  return languageModelInformation(model);
}

function tokenOf(signal: AbortSignal): vscode.CancellationTokenSource {
  const source = new vscode.CancellationTokenSource();
  if (signal.aborted) source.cancel();
  else signal.addEventListener('abort', () => source.cancel(), { once: true });
  return source;
}

/**
 * An entry remembered from the last window, listed before `vscode.lm` has answered: the model
 * object is looked up when a request comes (by its vendor and id), so a request sent through the
 * entry VS Code restored reaches the same model; a model gone since fails with what to do.
 */
export class RememberedLanguageModelTarget implements ForwardTarget {
  private resolved: LanguageModelTarget | undefined;

  constructor(readonly information: TargetInformation, private readonly kit: PartKit) {}

  async *send(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ResponseChunk> {
    yield* (await this.target()).send(request, signal);
  }

  async countTokens(text: string, signal: AbortSignal): Promise<number> {
    return (await this.target()).countTokens(text, signal);
  }

  private async target(): Promise<LanguageModelTarget> {
    if (this.resolved) return this.resolved;
    const selector = modelSelectorOf(this.information.id);
    const model = selector ? (await vscode.lm.selectChatModels(selector)).find((candidate) => candidate.vendor === selector.vendor && candidate.id === selector.id) : undefined;
    if (!model) throw new Error(`Herald: the model behind "Herald · ${this.information.name}" (${this.information.id}) is not available in this window; pick another model.`);
    this.resolved = new LanguageModelTarget(model, this.kit);
    return this.resolved;
  }
}
