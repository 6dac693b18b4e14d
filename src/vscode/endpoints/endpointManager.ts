/**
 * The endpoints the user added: forward targets built from `herald.endpoints`, keys kept in
 * SecretStorage (never in settings), and the "Herald: Manage Endpoints" flow: add (the URL
 * checked and normalized, the connection tested), test, edit, set the key, remove.
 */
import * as vscode from 'vscode';
import type { ForwardTarget } from '../../core/flow/forwardTarget';
import type { HeraldHost } from '../host/heraldHost';
import { endpointSchema, type EndpointSettings } from '../settings/settingsSchema';
import { EndpointTarget, type ConnectionTest, type FetchFunction } from './endpointTarget';
import { EndpointTimeout } from './endpointErrors';
import { keyChangeText, type KeyChange } from './keyChange';
import { normalizeEndpointUrl, type EndpointKind } from './endpointUrl';

const KEY_PREFIX = 'herald.endpointKey.';
/** How long "Test the connection" waits for the endpoint. */
const TEST_TIMEOUT_MS = 15_000;

const nodeFetch: FetchFunction = async (url, init) => {
  const response = await fetch(url, init);
  return {
    ok: response.ok,
    status: response.status,
    statusText: response.statusText,
    body: response.body as unknown as AsyncIterable<Uint8Array> | null,
    headers: response.headers,
    text: () => response.text(),
  };
};

type Action = 'add' | 'key' | 'test' | 'edit' | 'remove';

export class EndpointManager {
  private targets: EndpointTarget[] = [];

  constructor(private readonly host: HeraldHost, private readonly fetchFunction: FetchFunction = nodeFetch) {
    this.rebuild();
  }

  rebuild(): void {
    this.targets = this.host.settings().endpoints.map((endpoint) => new EndpointTarget(endpoint, () => this.readKey(endpoint.name), this.fetchFunction, this.host.optimizer.tokens));
  }

  list(): readonly ForwardTarget[] {
    return this.targets;
  }

  private async readKey(name: string): Promise<string | undefined> {
    return this.host.context.secrets.get(KEY_PREFIX + name);
  }

  /** The Manage Endpoints command: add, test, edit, set a key, or remove. */
  async manage(): Promise<void> {
    const endpoints = this.host.settings().endpoints;
    type Choice = vscode.QuickPickItem & { action: Action; endpoint?: EndpointSettings };
    const choices: Choice[] = [
      { label: '$(add) Add an endpoint…', description: 'OpenAI-compatible or Anthropic', action: 'add' },
      ...endpoints.flatMap((endpoint): Choice[] => [
        { label: '', kind: vscode.QuickPickItemKind.Separator, action: 'test' },
        { label: `$(plug) Test the connection of "${endpoint.name}"`, description: `${endpoint.kind} · ${endpoint.model} · ${endpoint.url}`, action: 'test', endpoint },
        { label: `$(key) Set the API key of "${endpoint.name}"`, action: 'key', endpoint },
        { label: `$(edit) Edit "${endpoint.name}"`, description: 'API, URL, model, window', action: 'edit', endpoint },
        { label: `$(trash) Remove "${endpoint.name}"`, action: 'remove', endpoint },
      ]),
    ];
    const choice = await vscode.window.showQuickPick(choices, { title: 'Herald: Manage Endpoints', placeHolder: endpoints.length === 0 ? 'No endpoints yet: add one to get a "Herald · <name>" model' : 'Pick what to do' });
    if (!choice) return;
    if (choice.action === 'add') await this.add();
    else if (choice.endpoint && choice.action === 'key') await this.setKey(choice.endpoint);
    else if (choice.endpoint && choice.action === 'test') await this.reportTest(choice.endpoint);
    else if (choice.endpoint && choice.action === 'edit') await this.edit(choice.endpoint);
    else if (choice.endpoint && choice.action === 'remove') await this.remove(choice.endpoint.name);
  }

  private async add(): Promise<void> {
    const existing = new Set(this.host.settings().endpoints.map((endpoint) => endpoint.name));
    const name = await vscode.window.showInputBox({
      title: 'Herald: endpoint name (1/4)',
      prompt: 'Shown as "Herald · <name>" in the model picker',
      validateInput: (value) => (value.trim().length === 0 ? 'Give the endpoint a name' : existing.has(value.trim()) ? 'An endpoint with this name exists' : value.trim().length > 80 ? 'At most 80 characters' : undefined),
    });
    if (!name) return;
    const details = await this.askDetails({ title: (step) => `Herald: ${step} (${step === 'API of the endpoint' ? 2 : step === 'base URL' ? 3 : 4}/4)` });
    if (!details) return;
    const endpoint: EndpointSettings = endpointSchema.parse({ name: name.trim(), ...details });
    await this.writeEndpoints([...this.rawEndpoints(), { name: endpoint.name, kind: endpoint.kind, url: endpoint.url, model: endpoint.model }]);
    const key = await this.askKey(endpoint.name);
    const test = await this.test(endpoint);
    await this.announce(endpoint.name, test, key);
  }

  /** Asks for the API, the URL and the model, prefilled from an endpoint when editing. */
  private async askDetails(options: { title: (step: string) => string; current?: EndpointSettings }): Promise<{ kind: EndpointKind; url: string; model: string } | undefined> {
    const kinds = [
      { label: 'OpenAI-compatible', description: 'POST <url>/chat/completions (OpenAI, Azure OpenAI, vLLM, Ollama, LM Studio, …)', api: 'openai' as const },
      { label: 'Anthropic', description: 'POST <url>/messages', api: 'anthropic' as const },
    ];
    const kind = await vscode.window.showQuickPick(
      options.current ? [...kinds].sort((a) => (a.api === options.current!.kind ? -1 : 1)) : kinds,
      { title: options.title('API of the endpoint') },
    );
    if (!kind) return undefined;
    const url = await vscode.window.showInputBox({
      title: options.title('base URL'),
      value: options.current?.url ?? (kind.api === 'openai' ? 'https://api.openai.com/v1' : 'https://api.anthropic.com/v1'),
      prompt: 'The base URL; Herald appends /chat/completions or /messages itself',
      validateInput: (value) => {
        const checked = normalizeEndpointUrl(value);
        if (!checked.ok) return checked.problem;
        return checked.note ? { message: checked.note, severity: vscode.InputBoxValidationSeverity.Info } : undefined;
      },
    });
    if (url === undefined) return undefined;
    const checked = normalizeEndpointUrl(url);
    if (!checked.ok) return undefined;
    const model = await vscode.window.showInputBox({
      title: options.title('model id'),
      value: options.current?.model,
      prompt: 'The model id the endpoint expects, e.g. gpt-4.1 or claude-sonnet-4-5',
      validateInput: (value) => (value.trim() ? undefined : 'Enter a model id'),
    });
    if (!model) return undefined;
    return { kind: kind.api, url: checked.url, model: model.trim() };
  }

  private async edit(endpoint: EndpointSettings): Promise<void> {
    const details = await this.askDetails({ title: (step) => `Herald: edit "${endpoint.name}": ${step}`, current: endpoint });
    if (!details) return;
    const updated = this.rawEndpoints().map((value) => ((value as { name?: unknown } | null)?.name === endpoint.name ? { ...(value as object), ...details } : value));
    await this.writeEndpoints(updated);
    const test = await this.test(endpointSchema.parse({ ...endpoint, ...details }));
    void vscode.window.showInformationMessage(`Herald: "${endpoint.name}" updated. ${test.message.replace(/^Herald: /, '')}`);
  }

  /** Runs "Test the connection" with progress and says what it found. */
  private async reportTest(endpoint: EndpointSettings): Promise<ConnectionTest> {
    const test = await this.test(endpoint);
    if (test.ok) void vscode.window.showInformationMessage(test.message);
    else {
      const choice = await vscode.window.showWarningMessage(test.message, 'Edit the Endpoint', 'Set the API Key');
      if (choice === 'Edit the Endpoint') await this.edit(endpoint);
      else if (choice === 'Set the API Key') await this.setKey(endpoint);
    }
    return test;
  }

  private test(endpoint: EndpointSettings): Thenable<ConnectionTest> {
    const target = new EndpointTarget(endpoint, () => this.readKey(endpoint.name), this.fetchFunction, this.host.optimizer.tokens);
    return vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Herald: testing "${endpoint.name}"…`, cancellable: true }, async (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      // The reason says how long Herald waited, so the message can ("did not answer within 15 s").
      const timer = setTimeout(() => abort.abort(new EndpointTimeout(TEST_TIMEOUT_MS)), TEST_TIMEOUT_MS);
      try {
        return await target.testConnection(abort.signal);
      } finally {
        clearTimeout(timer);
      }
    });
  }

  /** The "ready" notification after an endpoint was added: where to enable it, and the test's verdict. */
  private async announce(name: string, test: ConnectionTest, key: KeyChange): Promise<void> {
    const stored = keyChangeText(name, key);
    const message = test.ok
      ? `Herald: "Herald · ${name}" is ready: pick it in the chat's model picker.${stored ? ` ${stored}` : ''} ${test.message.replace(/^Herald: /, '')}`
      : `Herald: "Herald · ${name}" was added, but the test failed.${stored ? ` ${stored}` : ''} ${test.message.replace(/^Herald: /, '')}`;
    const choice = await (test.ok ? vscode.window.showInformationMessage(message, 'Enable Herald Models') : vscode.window.showWarningMessage(message, 'Manage Endpoints', 'Enable Herald Models'));
    if (choice === 'Enable Herald Models') await vscode.commands.executeCommand('herald.enableModels');
    else if (choice === 'Manage Endpoints') await this.manage();
  }

  /** Asks for the key and stores it (an empty answer removes it); says what it did. */
  private async askKey(name: string): Promise<KeyChange> {
    const key = await vscode.window.showInputBox({ title: `Herald: API key for "${name}"`, prompt: 'Kept in VS Code\'s secret storage; leave empty for endpoints without a key', password: true, ignoreFocusOut: true });
    if (key === undefined) return 'unchanged';
    if (key.trim().length === 0) {
      await this.host.context.secrets.delete(KEY_PREFIX + name);
      return 'removed';
    }
    await this.host.context.secrets.store(KEY_PREFIX + name, key.trim());
    return 'stored';
  }

  /** "Set the API key of …": asks, stores, and confirms, with the test one click away. */
  private async setKey(endpoint: EndpointSettings): Promise<void> {
    const change = await this.askKey(endpoint.name);
    const text = keyChangeText(endpoint.name, change);
    if (!text) return;
    const choice = await vscode.window.showInformationMessage(`Herald: ${text}`, 'Test the Connection');
    if (choice === 'Test the Connection') await this.reportTest(endpoint);
  }

  private async remove(name: string): Promise<void> {
    const confirmed = await vscode.window.showWarningMessage(`Herald: remove the endpoint "${name}" and its key?`, { modal: true }, 'Remove');
    if (confirmed !== 'Remove') return;
    await this.writeEndpoints(this.rawEndpoints().filter((value) => (value as { name?: unknown } | null)?.name !== name));
    await this.host.context.secrets.delete(KEY_PREFIX + name);
    void vscode.window.showInformationMessage(`Herald: "${name}" removed.`);
  }

  /** The setting as stored (fields the schema would default stay unwritten). */
  private rawEndpoints(): unknown[] {
    return vscode.workspace.getConfiguration('herald').get<unknown[]>('endpoints') ?? [];
  }

  private async writeEndpoints(values: unknown[]): Promise<void> {
    await vscode.workspace.getConfiguration('herald').update('endpoints', values, vscode.ConfigurationTarget.Global);
    this.host.reloadSettings();
  }
}
