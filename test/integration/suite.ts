/**
 * Runs inside VS Code (test-electron): Herald activates, registers its commands, tools and
 * the `herald` model vendor, and a request through an endpoint model comes back with the
 * in-turn retrieval answered. Plain assertions, no test framework to load in the host.
 */
import { strict as assert } from 'node:assert';
import * as vscode from 'vscode';
import { startFakeServer } from '../e2e/fakeOpenAiServer';

const EXPECTED_COMMANDS = ['herald.retrieveElidedContent', 'herald.showDecisions', 'herald.openLibrary', 'herald.newLibraryPage', 'herald.reindexLibrary', 'herald.exportSavingsReport', 'herald.toggleOptimizer', 'herald.manageEndpoints'];

export async function run(): Promise<void> {
  const extension = vscode.extensions.getExtension('herald.herald');
  assert.ok(extension, 'Herald is installed');
  await extension.activate();

  const commands = await vscode.commands.getCommands(true);
  for (const command of EXPECTED_COMMANDS) assert.ok(commands.includes(command), `${command} is registered`);
  for (const tool of ['herald_get_context', 'herald_read_page', 'herald_retrieve', 'herald_filter_context']) assert.ok(vscode.lm.tools.some((entry) => entry.name === tool), `${tool} is registered`);

  const fake = await startFakeServer();
  try {
    await vscode.workspace.getConfiguration('herald').update('endpoints', [{ name: 'integration', kind: 'openai', url: fake.url, model: 'fake' }], vscode.ConfigurationTarget.Global);
    let model: vscode.LanguageModelChat | undefined;
    for (let attempt = 0; attempt < 40 && !model; attempt++) {
      model = (await vscode.lm.selectChatModels({ vendor: 'herald' })).find((candidate) => candidate.id === 'endpoint:integration');
      if (!model) await new Promise((resolve) => setTimeout(resolve, 500));
    }
    assert.ok(model, 'Herald · integration is offered');
    const bulk = Array.from({ length: 400 }, (_, index) => `tests/test_${index}.py::test_case PASSED`).join('\n');
    const messages = [vscode.LanguageModelChatMessage.User('Run the tests')];
    for (let turn = 0; turn < 6; turn++) {
      messages.push(vscode.LanguageModelChatMessage.Assistant(`Running pytest, attempt ${turn}`));
      messages.push(vscode.LanguageModelChatMessage.User(`<returncode>0</returncode>\n<output>\n${bulk}\n</output>`));
    }
    const response = await model.sendRequest(messages, {}, new vscode.CancellationTokenSource().token);
    let text = '';
    for await (const piece of response.text) text += piece;
    assert.match(text, /E2E answer/);
  } finally {
    await vscode.workspace.getConfiguration('herald').update('endpoints', undefined, vscode.ConfigurationTarget.Global);
    await fake.close();
  }
}
