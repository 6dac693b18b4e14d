/**
 * The real VS Code part classes behind {@link PartKit}. Data parts are built through the
 * runtime class when this VS Code has one (`LanguageModelDataPart` is not in the 1.104 typings).
 */
import * as vscode from 'vscode';
import type { PartKit } from './messageConversion';

type DataPartConstructor = new (data: Uint8Array, mimeType: string) => unknown;
type AnyConstructor = abstract new (...args: never[]) => unknown;

export function createVscodePartKit(): PartKit {
  const dataClass = (vscode as unknown as { LanguageModelDataPart?: DataPartConstructor }).LanguageModelDataPart;
  // A provider receives tool results as LanguageModelToolResultPart2 (VS Code's typeConverters
  // build that class). From 1.106 it is the same class as LanguageModelToolResultPart; where a
  // VS Code still has it as a class of its own, both must count, or every tool result would be
  // carried as an opaque part and never optimized.
  const resultClasses = [vscode.LanguageModelToolResultPart, (vscode as unknown as { LanguageModelToolResultPart2?: AnyConstructor }).LanguageModelToolResultPart2].filter(
    (candidate): candidate is AnyConstructor => typeof candidate === 'function',
  );
  return {
    isText: (part): part is { value: string } => part instanceof vscode.LanguageModelTextPart,
    isToolCall: (part): part is { callId: string; name: string; input: object } => part instanceof vscode.LanguageModelToolCallPart,
    isToolResult: (part): part is { callId: string; content: ReadonlyArray<unknown> } => resultClasses.some((resultClass) => part instanceof resultClass),
    text: (value) => new vscode.LanguageModelTextPart(value),
    toolCall: (callId, name, input) => new vscode.LanguageModelToolCallPart(callId, name, input),
    toolResult: (callId, content) => new vscode.LanguageModelToolResultPart(callId, content),
    data: dataClass ? (bytes, mimeType) => new dataClass(bytes, mimeType) : undefined,
    message: (role, content, name) => new vscode.LanguageModelChatMessage(role as vscode.LanguageModelChatMessageRole, content as vscode.LanguageModelInputPart[], name),
  };
}
