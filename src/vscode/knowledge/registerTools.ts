/**
 * Herald's tools for agents: herald_get_context, herald_read_page and herald_filter_context.
 * (herald_retrieve is offered and answered inside the turn by every Herald model instead; see
 * manifest/contributes.ts for why it is not contributed.) Inputs are validated with zod; a bad input is answered with an
 * actionable message rather than thrown, so the agent can correct itself.
 */
import * as vscode from 'vscode';
import { filter } from '../../core/filter/filter';
import { getContext } from '../../core/knowledge/getContext';
import { readPage } from '../../core/knowledge/readPage';
import type { HeraldHost } from '../host/heraldHost';
import { filterToolInput, getContextToolInput, inputProblem, readPageToolInput } from './toolInputs';
import { describeError } from '../../core/errors';

type ToolHandler = (input: unknown, token: vscode.CancellationToken) => Promise<string>;

export function registerTools(host: HeraldHost): vscode.Disposable[] {
  const handlers: Record<string, ToolHandler> = {
    herald_get_context: async (input, token) => {
      const parsed = getContextToolInput.safeParse(input);
      if (!parsed.success) return inputProblem('herald_get_context', parsed.error);
      const library = host.library.current();
      if (!library) return `Herald: no knowledge library is available: ${host.library.view().message ?? 'unknown reason'}`;
      // A tool call carries no chat model, so the judge (which needs one) does not run here.
      const dependencies = await host.knowledge.contextDependencies({ judgeMode: host.settings().judgeMode, embeddingFolder: host.embeddingFolder(), signal: abortOf(token) }, host.logger);
      const result = await getContext(library, parsed.data, dependencies);
      host.library.recordContext('get_context', parsed.data.task, result);
      return result.markdown;
    },
    herald_read_page: async (input) => {
      const parsed = readPageToolInput.safeParse(input);
      if (!parsed.success) return inputProblem('herald_read_page', parsed.error);
      const library = host.library.current();
      if (!library) return `Herald: no knowledge library is available: ${host.library.view().message ?? 'unknown reason'}`;
      const viewer = host.knowledge.viewer();
      const page = readPage(library, parsed.data.page_id, viewer ? { viewer } : {});
      host.library.note(`read_page ${parsed.data.page_id}${page ? '' : ' (not found)'}`);
      return page?.markdown ?? `Herald: no page "${parsed.data.page_id}" in the library; herald_get_context lists page ids.`;
    },
    herald_filter_context: async (input, token) => {
      const parsed = filterToolInput.safeParse(input);
      if (!parsed.success) return inputProblem('herald_filter_context', parsed.error);
      // The agent's own threshold applies (learned in global storage); a tool call carries no model, so there is no judge or quality check here.
      const embedder = await host.knowledge.embedder(host.embeddingFolder());
      const result = await filter({ aggressiveness: host.settings().aggressiveness, ...parsed.data }, { logger: host.logger, tokens: host.optimizer.tokens, thresholds: host.filterThresholds(), signal: abortOf(token), ...(embedder ? { embedder } : {}) });
      return JSON.stringify({ kept: result.kept, report: result.report, items: result.items.map((item) => ({ id: item.id, decision: item.decision, score: item.score, reason: item.reason })) }, null, 2);
    },
  };
  return Object.entries(handlers).map(([name, handler]) =>
    vscode.lm.registerTool<unknown>(name, {
      async invoke(options, token) {
        try {
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(await handler(options.input, token))]);
        } catch (error) {
          const message = describeError(error);
          host.logger.error('tool-failed', `Herald: ${name} failed: ${message}`);
          return new vscode.LanguageModelToolResult([new vscode.LanguageModelTextPart(`Herald: ${name} failed: ${message}`)]);
        }
      },
    }),
  );
}

function abortOf(token: vscode.CancellationToken): AbortSignal {
  const controller = new AbortController();
  if (token.isCancellationRequested) controller.abort();
  token.onCancellationRequested(() => controller.abort());
  return controller.signal;
}
