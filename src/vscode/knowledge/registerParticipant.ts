/**
 * The @herald chat participant. By default it answers with the library's bundle for the
 * question and the user's selected model; `/context <task>` shows the bundle with references
 * that open its pages; `/explain` shows what Herald did to the last request.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { runQualityCheck } from '../../core/filter/filter';
import { getContext } from '../../core/knowledge/getContext';
import type { HeraldHost } from '../host/heraldHost';
import { explainRecord } from './explainRecord';
import { languageModelPort, type OwnCall } from './languageModelPort';
import { ownCallRecord } from './ownCalls';
import { filterReferences, type AttachedReference, type FilteredReferences } from './referenceFilter';
import { describeError } from '../../core/errors';

export const PARTICIPANT_ID = 'herald.participant';
/** The filter learns one threshold per call site; this is @herald's. */
const PARTICIPANT_AGENT = 'herald-participant';

/** The attached files and selections as text, through the filter; undefined when nothing is attached. */
async function filteredAttachments(host: HeraldHost, request: vscode.ChatRequest, question: string, signal: AbortSignal): Promise<FilteredReferences | undefined> {
  const references: AttachedReference[] = [];
  for (const [index, reference] of request.references.entries()) {
    const read = await readReference(reference.value).catch(() => undefined);
    if (read) references.push({ id: `a${index}`, ...read });
  }
  if (references.length === 0) return undefined;
  const embedder = await host.knowledge.embedder(host.embeddingFolder());
  return filterReferences(question, references, { aggressiveness: host.settings().aggressiveness, agent: PARTICIPANT_AGENT, model: request.model.family }, {
    tokens: host.optimizer.tokens,
    thresholds: host.filterThresholds(),
    logger: host.logger,
    signal,
    ...(embedder ? { embedder } : {}),
  });
}

/** A file (whole) or a selection (its lines) as labelled text; other values are not attachments Herald can read. */
async function readReference(value: unknown): Promise<{ label: string; content: string } | undefined> {
  if (value instanceof vscode.Uri) {
    const document = await vscode.workspace.openTextDocument(value);
    return { label: vscode.workspace.asRelativePath(value), content: document.getText() };
  }
  if (value instanceof vscode.Location) {
    const document = await vscode.workspace.openTextDocument(value.uri);
    return { label: `${vscode.workspace.asRelativePath(value.uri)}:${value.range.start.line + 1}-${value.range.end.line + 1}`, content: document.getText(value.range) };
  }
  return undefined;
}

export function registerParticipant(host: HeraldHost): vscode.Disposable[] {
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
    // The plan by rules is enough for the library's search; the model plan (one more request to the chat's
    // model, a premium request on a Copilot-hosted one) runs only when the user allowed model calls for the library.
    const modelCalls = settings.judgeMode !== 'off';
    const dependencies = await host.knowledge.contextDependencies(
      { judgeMode: settings.judgeMode, embeddingFolder: host.embeddingFolder(), ...(modelCalls ? { model: languageModelPort(request.model, 'library plan', recordOwnCall) } : {}), signal: abort.signal },
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
    const attachments = await filteredAttachments(host, request, task, abort.signal);
    if (attachments?.note) stream.markdown(`${attachments.note}\n\n`);
    const messages = [
      vscode.LanguageModelChatMessage.User(`Here is what the team's knowledge library says that is relevant to my request. Follow its rules.\n\n${result.markdown}`),
      ...(attachments && attachments.kept.length > 0
        ? [vscode.LanguageModelChatMessage.User(`Files I attached:\n\n${attachments.kept.map((reference) => `${reference.label}:\n\`\`\`\n${reference.content}\n\`\`\``).join('\n\n')}`)]
        : []),
      vscode.LanguageModelChatMessage.User(task),
    ];
    const response = await request.model.sendRequest(messages, {}, token);
    for await (const piece of response.text) stream.markdown(piece);
    if (attachments && host.settings().filterQualityCheck) {
      // After the answer, so it adds no latency: was the kept context enough? The threshold for @herald moves with the verdict.
      void runQualityCheck(attachments.result, PARTICIPANT_AGENT, languageModelPort(request.model, 'filter quality check', recordOwnCall), host.filterThresholds()).catch((error: unknown) =>
        host.logger.warn('filter-quality-check-failed', `Herald: the filter's quality check failed: ${describeError(error)}`),
      );
    }
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
