/** A scripted forward target: each call plays the next script and records the request it got. */
import type { ChatRequest } from '../../../src/core/chat/types';
import type { ForwardTarget, ResponseChunk, TargetInformation } from '../../../src/core/flow/forwardTarget';

export type Script = readonly ResponseChunk[] | ((request: ChatRequest) => readonly ResponseChunk[]) | Error;

export class FakeTarget implements ForwardTarget {
  readonly received: ChatRequest[] = [];
  readonly information: TargetInformation;

  constructor(private readonly scripts: Script[], overrides: Partial<TargetInformation> = {}) {
    this.information = { id: 'fake:1', name: 'Fake', family: 'fake', version: '1', maxInputTokens: 100_000, maxOutputTokens: 1000, toolCalling: true, imageInput: false, ...overrides };
  }

  async *send(request: ChatRequest, signal: AbortSignal): AsyncGenerator<ResponseChunk> {
    this.received.push(request);
    const script = this.scripts[this.received.length - 1] ?? [{ type: 'text', text: 'done' }];
    if (script instanceof Error) throw script;
    for (const chunk of typeof script === 'function' ? script(request) : script) {
      if (signal.aborted) throw new Error('cancelled');
      yield chunk;
    }
  }

  async countTokens(text: string): Promise<number> {
    return text.length;
  }
}
