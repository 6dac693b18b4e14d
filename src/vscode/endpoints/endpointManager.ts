/**
 * The endpoints the user added: forward targets built from `herald.endpoints`, keys kept in
 * SecretStorage (never in settings), and the "Herald: Manage Endpoints" flow.
 */
import * as vscode from 'vscode';
import type { ForwardTarget } from '../../core/flow/forwardTarget';
import type { HeraldHost } from '../host/heraldHost';
import { endpointSchema, type EndpointSettings } from '../settings/settingsSchema';
import { EndpointTarget, type FetchFunction } from './endpointTarget';

const KEY_PREFIX = 'herald.endpointKey.';

const nodeFetch: FetchFunction = async (url, init) => {
  const response = await fetch(url, init);
  return {
    ok: response.ok,
    status: response.status,
    statusText: response.statusText,
    body: response.body as unknown as AsyncIterable<Uint8Array> | null,
    text: () => response.text(),
  };
};

export class EndpointManager {
  private targets: ForwardTarget[] = [];

  constructor(private readonly host: HeraldHost) {
    this.rebuild();
  }

  rebuild(): void {
    this.targets = this.host.settings().endpoints.map((endpoint) => new EndpointTarget(endpoint, () => this.readKey(endpoint.name), nodeFetch, this.host.optimizer.tokens));
  }

  list(): readonly ForwardTarget[] {
    return this.targets;
  }

  private async readKey(name: string): Promise<string | undefined> {
    return this.host.context.secrets.get(KEY_PREFIX + name);
  }

  /** The Manage Endpoints command: add, set a key, or remove. */
  async manage(): Promise<void> {
    const endpoints = this.host.settings().endpoints;
    type Choice = vscode.QuickPickItem & { action: 'add' | 'key' | 'remove'; endpoint?: EndpointSettings };
    const choices: Choice[] = [
      { label: '$(add) Add an endpoint…', description: 'OpenAI-compatible or Anthropic', action: 'add' },
      ...endpoints.flatMap((endpoint): Choice[] => [
        { label: `$(key) Set the API key of "${endpoint.name}"`, description: `${endpoint.kind} · ${endpoint.model} · ${endpoint.url}`, action: 'key', endpoint },
        { label: `$(trash) Remove "${endpoint.name}"`, action: 'remove', endpoint },
      ]),
    ];
    const choice = await vscode.window.showQuickPick(choices, { title: 'Herald: Manage Endpoints', placeHolder: endpoints.length === 0 ? 'No endpoints yet: add one to get a "Herald · <name>" model' : 'Pick what to do' });
    if (!choice) return;
    if (choice.action === 'add') await this.add();
    else if (choice.action === 'key' && choice.endpoint) await this.askKey(choice.endpoint.name);
    else if (choice.action === 'remove' && choice.endpoint) await this.remove(choice.endpoint.name);
  }

  private async add(): Promise<void> {
    const existing = new Set(this.host.settings().endpoints.map((endpoint) => endpoint.name));
    const name = await vscode.window.showInputBox({
      title: 'Herald: endpoint name (1/4)',
      prompt: 'Shown as "Herald · <name>" in the model picker',
      validateInput: (value) => (value.trim().length === 0 ? 'Give the endpoint a name' : existing.has(value.trim()) ? 'An endpoint with this name exists' : undefined),
    });
    if (!name) return;
    const kind = await vscode.window.showQuickPick(
      [
        { label: 'OpenAI-compatible', description: 'POST <url>/chat/completions (OpenAI, Azure OpenAI, vLLM, Ollama, LM Studio, …)', api: 'openai' as const },
        { label: 'Anthropic', description: 'POST <url>/messages', api: 'anthropic' as const },
      ],
      { title: 'Herald: API of the endpoint (2/4)' },
    );
    if (!kind) return;
    const url = await vscode.window.showInputBox({
      title: 'Herald: base URL (3/4)',
      value: kind.api === 'openai' ? 'https://api.openai.com/v1' : 'https://api.anthropic.com/v1',
      validateInput: (value) => (endpointSchema.shape.url.safeParse(value.trim()).success ? undefined : 'Enter a URL such as https://api.openai.com/v1'),
    });
    if (!url) return;
    const model = await vscode.window.showInputBox({ title: 'Herald: model id (4/4)', prompt: 'The model id the endpoint expects, e.g. gpt-4.1 or claude-sonnet-4-5', validateInput: (value) => (value.trim() ? undefined : 'Enter a model id') });
    if (!model) return;
    const configuration = vscode.workspace.getConfiguration('herald');
    const current = configuration.get<unknown[]>('endpoints') ?? [];
    await configuration.update('endpoints', [...current, { name: name.trim(), kind: kind.api, url: url.trim(), model: model.trim() }], vscode.ConfigurationTarget.Global);
    await this.askKey(name.trim());
    void vscode.window.showInformationMessage(`Herald: "Herald · ${name.trim()}" is ready. Enable it in the chat model picker (Manage Models) to use it.`);
  }

  private async askKey(name: string): Promise<void> {
    const key = await vscode.window.showInputBox({ title: `Herald: API key for "${name}"`, prompt: 'Kept in VS Code\'s secret storage; leave empty for endpoints without a key', password: true, ignoreFocusOut: true });
    if (key === undefined) return;
    if (key.length === 0) await this.host.context.secrets.delete(KEY_PREFIX + name);
    else await this.host.context.secrets.store(KEY_PREFIX + name, key);
  }

  private async remove(name: string): Promise<void> {
    const configuration = vscode.workspace.getConfiguration('herald');
    const current = configuration.get<unknown[]>('endpoints') ?? [];
    await configuration.update('endpoints', current.filter((value) => (value as { name?: unknown } | null)?.name !== name), vscode.ConfigurationTarget.Global);
    await this.host.context.secrets.delete(KEY_PREFIX + name);
  }
}
