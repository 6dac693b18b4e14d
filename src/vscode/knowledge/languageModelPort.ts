/** A VS Code chat model as the core's ModelPort (the judge of get_context and the filter). */
import * as vscode from 'vscode';
import type { ModelPort } from '../../core/ports';

export function languageModelPort(model: vscode.LanguageModelChat): ModelPort {
  return {
    name: `${model.vendor}/${model.id}`,
    async complete(request) {
      const source = new vscode.CancellationTokenSource();
      request.signal?.addEventListener('abort', () => source.cancel(), { once: true });
      try {
        const messages = [
          ...(request.system ? [vscode.LanguageModelChatMessage.User(request.system)] : []),
          vscode.LanguageModelChatMessage.User(request.prompt),
        ];
        const response = await model.sendRequest(messages, { justification: 'Herald asks the model to judge which library sections matter for your task.' }, source.token);
        let text = '';
        for await (const piece of response.text) text += piece;
        return text;
      } finally {
        source.dispose();
      }
    },
  };
}
