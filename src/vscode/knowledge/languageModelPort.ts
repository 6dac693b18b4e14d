/**
 * A VS Code chat model as the core's ModelPort (the library's plan and judge, the filter's
 * quality check). These are Herald's own calls: through a Herald model they carry a model
 * option that makes the record say so (and never leaves Herald); to a Copilot-hosted model each
 * is one more premium request, which `onCall` gets to count.
 */
import * as vscode from 'vscode';
import type { ModelPort } from '../../core/ports';
import { HERALD_ORIGIN_OPTION } from '../chat/modelInformation';

/** One call Herald made on its own behalf. */
export interface OwnCall {
  readonly model: vscode.LanguageModelChat;
  /** What it was for, e.g. "library plan". */
  readonly purpose: string;
  /** The text sent (system and prompt), for the record's token count. */
  readonly prompt: string;
  readonly failed: boolean;
}

export function languageModelPort(model: vscode.LanguageModelChat, purpose = 'library judge', onCall?: (call: OwnCall) => void): ModelPort {
  return {
    name: `${model.vendor}/${model.id}`,
    async complete(request) {
      const source = new vscode.CancellationTokenSource();
      request.signal?.addEventListener('abort', () => source.cancel(), { once: true });
      let failed = true;
      try {
        const messages = [
          ...(request.system ? [vscode.LanguageModelChatMessage.User(request.system)] : []),
          vscode.LanguageModelChatMessage.User(request.prompt),
        ];
        const response = await model.sendRequest(
          messages,
          { justification: `Herald asks the model for the ${purpose} of your request.`, ...(model.vendor === 'herald' ? { modelOptions: { [HERALD_ORIGIN_OPTION]: 'herald' } } : {}) },
          source.token,
        );
        let text = '';
        for await (const piece of response.text) text += piece;
        failed = false;
        return text;
      } finally {
        onCall?.({ model, purpose, prompt: `${request.system ?? ''}\n${request.prompt}`, failed });
        source.dispose();
      }
    },
  };
}
