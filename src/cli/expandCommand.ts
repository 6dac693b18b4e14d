/** `herald expand`: an optimized request in, the same request with every marker expanded out. */
import { serializeRequest, type ChatRequest, type Part, type ResultContentPart } from '../core/chat';
import type { Stash } from '../core/stash';
import { RecordingLogger } from '../core/ports';
import { parseOptions, type CliCommand } from './io';
import { formatOption, parseRequestOrFail } from './optimizeCommand';
import { readJsonInput } from './readJson';
import { defaultStashDirectory, openStashDirectory } from './stashDirectory';

export const expandCommand: CliCommand = async (args, io) => {
  const { options } = parseOptions(args, { stash: true, format: true });
  const format = formatOption(options.format);
  const request = parseRequestOrFail(await readJsonInput(io), format);
  const directory = openStashDirectory(String(options.stash ?? defaultStashDirectory()), new RecordingLogger());
  const expanded = await expandRequest(request, directory.stash);
  io.stdout(JSON.stringify(serializeRequest(expanded)) + '\n');
  return 0;
};

/** Every text in the request with its markers replaced by the stashed originals. */
export async function expandRequest(request: ChatRequest, stash: Stash): Promise<ChatRequest> {
  const expandPart = async <T extends Part | ResultContentPart>(part: T): Promise<T> => {
    if (part.type === 'text') {
      const text = await stash.expandText(part.text);
      return (text === part.text ? part : { ...part, text }) as T;
    }
    if (part.type === 'tool_result') {
      const content = await Promise.all(part.content.map((inner) => expandPart(inner)));
      return { ...part, content } as T;
    }
    return part;
  };
  const messages = await Promise.all(request.messages.map(async (message) => ({ ...message, parts: await Promise.all(message.parts.map((part) => expandPart(part))) })));
  return { ...request, messages };
}
