/**
 * The @herald chat participant. By default it answers with the library's bundle for the
 * question and the user's selected model; `/context <task>` shows the bundle with references
 * that open its pages; `/explain` shows what Herald did to the last request.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { getContext } from '../../core/knowledge/getContext';
import type { HeraldHost } from '../host/heraldHost';
import { explainRecord } from './explainRecord';
import { languageModelPort } from './languageModelPort';

export const PARTICIPANT_ID = 'herald.participant';

export function registerParticipant(host: HeraldHost): vscode.Disposable[] {
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, async (request, _context, stream, token) => {
    if (request.command === 'explain') {
      stream.markdown(explainRecord(host.log.last()));
      return { metadata: { command: 'explain' } };
    }
    const task = request.prompt.trim();
    if (task.length === 0) {
      stream.markdown('Tell me what you are about to do, e.g. `@herald /context add a refund endpoint`.');
      return {};
    }
    const library = host.library.current();
    if (!library) {
      stream.markdown(`No knowledge library is available: ${host.library.view().message ?? 'unknown reason'}`);
      return {};
    }
    const settings = host.settings();
    stream.progress('Choosing what the library says about this…');
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    const dependencies = await host.knowledge.contextDependencies(
      { judgeMode: settings.judgeMode, embeddingFolder: host.embeddingFolder(), model: languageModelPort(request.model), signal: abort.signal },
      host.logger,
    );
    const result = await getContext(library, { task }, dependencies);
    // Verdicts the judge confirmed survive a restart.
    if (settings.judgeMode !== 'off') host.knowledge.saveJudgeMemory();
    host.library.recordContext('@herald', task, result);
    for (const page of result.pages) {
      const file = library.page(page.page_id);
      if (file) stream.reference(vscode.Uri.file(path.join(library.root, file.path)));
    }
    if (request.command === 'context') {
      if (result.nothingFound) {
        stream.markdown(`Nothing in the library matches this task.${result.nearest.length > 0 ? ` The nearest pages: ${result.nearest.map((page) => `**${page.title}**`).join(', ')}.` : ''}`);
      } else {
        stream.markdown(`**${result.pages.length} pages, ${result.tokens} of ${result.maxTokens} tokens**\n\n`);
        stream.markdown(result.markdown);
      }
      return { metadata: { command: 'context' } };
    }
    const messages = [
      vscode.LanguageModelChatMessage.User(`Here is what the team's knowledge library says that is relevant to my request. Follow its rules.\n\n${result.markdown}`),
      vscode.LanguageModelChatMessage.User(task),
    ];
    const response = await request.model.sendRequest(messages, {}, token);
    for await (const piece of response.text) stream.markdown(piece);
    return { metadata: { command: 'answer' } };
  });
  participant.iconPath = vscode.Uri.joinPath(host.context.extensionUri, 'media', 'herald.svg');
  participant.followupProvider = {
    provideFollowups(result) {
      const command = (result.metadata as { command?: string } | undefined)?.command;
      if (command === 'explain') return [];
      return [
        { prompt: '', command: 'explain', label: 'What did Herald do to my last request?' },
        ...(command === 'answer' ? [{ prompt: 'the same task', command: 'context', label: 'Show the library context it used' }] : []),
      ];
    },
  };
  return [participant];
}
