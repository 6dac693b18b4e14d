/**
 * The @herald chat participant. It answers every question with the chat's model: the library
 * adds its rules and what matches the question when the workspace has one (without one, the
 * answer ends with a hint how to start it), and every file or selection the user attached is
 * sent, digested only past the budget (attachments.ts). `/context <task>` shows the bundle with
 * references that open its pages; `/explain` shows what Herald did to the last request.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { getContext } from '../../core/knowledge/getContext';
import type { ContextResult } from '../../core/knowledge/result';
import type { ChosenChatModel } from '../chat/chosenChatModel';
import type { HeraldHost } from '../host/heraldHost';
import { attachmentBudget, prepareAttachments, type AttachedReference, type PreparedAttachments } from './attachments';
import { explainRecord } from './explainRecord';
import { languageModelPort, type OwnCall } from './languageModelPort';
import { ownCallRecord } from './ownCalls';
import { attachmentsMessage, contextReply, libraryFootnote, libraryMessage, noLibraryHint } from './participantText';

export const PARTICIPANT_ID = 'herald.participant';

/** The attached files and selections as text, every one of them (digested past the budget); undefined when nothing is attached. */
async function attachedReferences(host: HeraldHost, request: vscode.ChatRequest, question: string): Promise<PreparedAttachments | undefined> {
  const references: AttachedReference[] = [];
  for (const reference of request.references) {
    const read = await readReference(reference.value, reference.modelDescription ?? reference.id).catch((error: unknown) => {
      host.logger.warn('attachment-unreadable', `Herald: an attachment could not be read (${error instanceof Error ? error.message : String(error)}); it was not sent`);
      return undefined;
    });
    if (read) references.push(read);
  }
  if (references.length === 0) return undefined;
  const prepared = prepareAttachments(question, references, attachmentBudget(request.model.maxInputTokens), { tokens: host.optimizer.tokens, stash: host.optimizer.stash });
  // What a digest left out must be retrievable before the model can ask for it.
  if (prepared.sent.some((attachment) => attachment.handles.length > 0)) await host.optimizer.stash.flush();
  return prepared;
}

/** A file (whole) or a selection (its lines) as labelled text; other values are not attachments Herald can read. */
async function readReference(value: unknown, name: string): Promise<AttachedReference | undefined> {
  if (value instanceof vscode.Uri) {
    const document = await vscode.workspace.openTextDocument(value);
    return { label: vscode.workspace.asRelativePath(value), content: document.getText() };
  }
  if (value instanceof vscode.Location) {
    const document = await vscode.workspace.openTextDocument(value.uri);
    return { label: `${vscode.workspace.asRelativePath(value.uri)}:${value.range.start.line + 1}-${value.range.end.line + 1}`, content: document.getText(value.range) };
  }
  if (typeof value === 'string' && value.length > 0) return { label: name, content: value };
  return undefined;
}

export function registerParticipant(host: HeraldHost, chosenModel?: ChosenChatModel): vscode.Disposable[] {
  let ownCalls = 0;
  // Herald's own calls straight to a Copilot-hosted model are premium requests: each gets a record.
  const recordOwnCall = (call: OwnCall): void => {
    const record = ownCallRecord({ vendor: call.model.vendor, name: call.model.name, family: call.model.family, purpose: call.purpose, tokens: host.optimizer.tokens.count(call.prompt), failed: call.failed }, `h${Date.now().toString(36)}-${(++ownCalls).toString(36)}`, Date.now());
    if (record) host.log.add(record);
  };
  const participant = vscode.chat.createChatParticipant(PARTICIPANT_ID, async (request, _context, stream, token) => {
    if (request.command === 'explain') {
      stream.markdown(explainRecord(host.log.last()));
      return { metadata: { command: 'explain' } };
    }
    // The chat's model as the user chose it (a Herald model is chosen again after a reload).
    chosenModel?.observe({ vendor: request.model.vendor, id: request.model.id, family: request.model.family, name: request.model.name });
    const task = request.prompt.trim();
    if (task.length === 0) {
      stream.markdown('Tell me what you are about to do, e.g. `@herald /context add a refund endpoint`.');
      return {};
    }
    const startedAt = Date.now();
    const library = host.library.current();
    const abort = new AbortController();
    token.onCancellationRequested(() => abort.abort());
    let result: ContextResult | undefined;
    if (library) {
      const settings = host.settings();
      stream.progress('Choosing what the library says about this…');
      // The plan by rules is enough for the library's search; the model plan (one more request to the chat's
      // model, a premium request on a Copilot-hosted one) runs only when the user allowed model calls for the library.
      const modelCalls = settings.judgeMode !== 'off';
      const dependencies = await host.knowledge.contextDependencies(
        { judgeMode: settings.judgeMode, embeddingFolder: host.embeddingFolder(), ...(modelCalls ? { model: languageModelPort(request.model, 'library plan', recordOwnCall) } : {}), signal: abort.signal },
        host.logger,
      );
      result = await getContext(library, { task }, dependencies);
      // Verdicts the judge confirmed survive a restart.
      if (modelCalls) host.knowledge.saveJudgeMemory();
      host.library.recordContext('@herald', task, result);
      for (const page of result.pages) {
        const file = library.page(page.page_id);
        if (file) stream.reference(vscode.Uri.file(path.join(library.root, file.path)));
      }
    }
    if (request.command === 'context') {
      stream.markdown(result ? contextReply(result) : `No knowledge library to show. ${noLibraryHint(host.library.view().message).replace(/^_Answered without a knowledge library\. |_$/g, '')}`);
      return { metadata: { command: 'context' } };
    }
    const libraryMs = Date.now() - startedAt;
    const attachments = await attachedReferences(host, request, task);
    const preparedAt = Date.now();
    if (attachments?.note) stream.markdown(`${attachments.note}\n\n`);
    const parts = [result ? libraryMessage(result) : undefined, attachmentsMessage(attachments?.sent ?? []), task].filter((part): part is string => part !== undefined);
    const response = await request.model.sendRequest(parts.map((part) => vscode.LanguageModelChatMessage.User(part)), {}, token);
    let firstPieceAt: number | undefined;
    for await (const piece of response.text) {
      firstPieceAt ??= Date.now();
      stream.markdown(piece);
    }
    stream.markdown(`\n\n${result ? libraryFootnote(result) : noLibraryHint(host.library.view().message)}`);
    host.logger.info('participant-answered', `Herald: @herald answered with ${request.model.name}: library ${libraryMs} ms, attachments ${preparedAt - startedAt - libraryMs} ms, first words after ${firstPieceAt === undefined ? '—' : firstPieceAt - preparedAt} ms, done after ${Date.now() - startedAt} ms`);
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
