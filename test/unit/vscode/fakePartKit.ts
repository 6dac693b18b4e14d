/** Stand-ins for VS Code's part classes, so the host logic runs under mocha. */
import type { PartKit } from '../../../src/vscode/chat/messageConversion';

export class FakeText {
  constructor(readonly value: string) {}
}
export class FakeToolCall {
  constructor(readonly callId: string, readonly name: string, readonly input: object) {}
}
export class FakeToolResult {
  constructor(readonly callId: string, readonly content: unknown[]) {}
}
export class FakeData {
  constructor(readonly data: Uint8Array, readonly mimeType: string) {}
}
export class FakeThinking {
  constructor(readonly value: string, readonly id: string, readonly metadata?: Readonly<Record<string, unknown>>) {}
}
export class FakeMessage {
  constructor(readonly role: number, readonly content: unknown[], readonly name: string | undefined) {}
}

export const fakeKit: PartKit = {
  isText: (part): part is { value: string } => part instanceof FakeText,
  isToolCall: (part): part is FakeToolCall => part instanceof FakeToolCall,
  isToolResult: (part): part is FakeToolResult => part instanceof FakeToolResult,
  text: (value) => new FakeText(value),
  toolCall: (callId, name, input) => new FakeToolCall(callId, name, input),
  toolResult: (callId, content) => new FakeToolResult(callId, content),
  data: (bytes, mimeType) => new FakeData(bytes, mimeType),
  message: (role, content, name) => new FakeMessage(role, content, name),
};
