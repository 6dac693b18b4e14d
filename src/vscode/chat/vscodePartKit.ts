/**
 * The real VS Code part classes behind {@link PartKit}. Data parts are built through the
 * runtime class when this VS Code has one (`LanguageModelDataPart` is not in the 1.104 typings).
 */
import * as vscode from 'vscode';
import type { PartKit } from './messageConversion';

type DataPartConstructor = new (data: Uint8Array, mimeType: string) => unknown;

export function createVscodePartKit(): PartKit {
  const dataClass = (vscode as unknown as { LanguageModelDataPart?: DataPartConstructor }).LanguageModelDataPart;
  return {
    isText: (part): part is { value: string } => part instanceof vscode.LanguageModelTextPart,
    isToolCall: (part): part is { callId: string; name: string; input: object } => part instanceof vscode.LanguageModelToolCallPart,
    isToolResult: (part): part is { callId: string; content: ReadonlyArray<unknown> } => part instanceof vscode.LanguageModelToolResultPart,
    text: (value) => new vscode.LanguageModelTextPart(value),
    toolCall: (callId, name, input) => new vscode.LanguageModelToolCallPart(callId, name, input),
    toolResult: (callId, content) => new vscode.LanguageModelToolResultPart(callId, content),
    data: dataClass ? (bytes, mimeType) => new dataClass(bytes, mimeType) : undefined,
    message: (role, content, name) => new vscode.LanguageModelChatMessage(role as vscode.LanguageModelChatMessageRole, content as vscode.LanguageModelInputPart[], name),
  };
}
