import type { ModelCompletionRequest, ModelPort } from '../../../src/core/ports';

/** A stand-in for a hosted model: answers with `reply` and records every request it was asked. */
export class RecordingModel implements ModelPort {
  readonly asked: ModelCompletionRequest[] = [];
  constructor(readonly name: string, private readonly reply: (request: ModelCompletionRequest, call: number) => string | Promise<string>) {}
  async complete(request: ModelCompletionRequest): Promise<string> {
    this.asked.push(request);
    return this.reply(request, this.asked.length);
  }
}

/** Scores each candidate in a judge prompt by whether its text contains `word`. */
export function keywordJudge(word: string): RecordingModel {
  return new RecordingModel('fake-judge', (request) => {
    const verdicts = [...request.prompt.matchAll(/<candidate id=("[^"]*")>\n([\s\S]*?)\n<\/candidate>/g)].map((match) => ({
      id: JSON.parse(match[1]!) as string,
      score: match[2]!.toLowerCase().includes(word) ? 2.6 : 0.3,
      reason: match[2]!.toLowerCase().includes(word) ? `mentions ${word}` : 'unrelated',
    }));
    return JSON.stringify(verdicts);
  });
}
