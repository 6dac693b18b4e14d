/**
 * End-to-end test in a real VS Code (code-server + Debian Chromium + playwright-core):
 *   npm run test:e2e
 *
 * Packages the VSIX, installs it with a test-only driver extension, points a Herald endpoint at
 * a loopback fake OpenAI server, sends a real agent conversation through "Herald · e2e-fake"
 * with `vscode.lm` (the driver's command, run from the Command Palette), and checks in the real
 * workbench: the fake model's `herald_retrieve` call was answered inside the turn, the
 * Decisions view shows the request, "Herald: Retrieve Elided Content" opens the original, and
 * the Library view lists the sample library. Screenshots go to test/e2e/artifacts/.
 *
 * Secrets (issue #11): a canary API key, new each run, is typed into "Herald: Manage Endpoints"
 * as a user would; the fake server must receive it as the bearer token, code-server's secret
 * storage must hold it (sealed), and after every command has run no file under the user-data
 * folder, the workspace, the exported report or code-server's own logs may hold it in any form.
 *
 * Environment: HERALD_E2E_SKIP_PACKAGE=1 reuses herald-<version>.vsix; HERALD_E2E_KEEP=1 keeps
 * the temporary folders; HERALD_E2E_HEADED=1 shows the browser (needs a display).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createDecipheriv, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Frame, type Page } from 'playwright-core';
import { findMarkers } from '../../src/core/stash/marker';
import { hasSharedData, loadTrajectory } from '../support/sharedData';
import { FAKE_MODEL, FAKE_PRICE, startFakeServer, type FakeServer } from './fakeOpenAiServer';
import { checkBilledFigures, sendDirectRequest, type EndpointTurns, type PricedRecord } from './checks/billedFigures';
import { scanForSecret, secretForms } from './secretScan';
import { runEditorWalks } from './checks/editorWalks';
import { runModelPathWalk } from './checks/modelPathWalk';
import { runPolishWalk } from './checks/polishWalk';

const ROOT = path.resolve(__dirname, '..', '..');
const ARTIFACTS = path.join(__dirname, 'artifacts');
const ENDPOINT_NAME = 'e2e-fake';
/** An endpoint nothing listens on: the "endpoint down" check. */
/** The status bar's totals: tokens saved, or sent beyond the originals (statusText.ts). */
const STATUS_TOTALS = /\d(\.\d)?[kM]? (saved|more)/;
/** The Decisions view's totals line. */
const VIEW_TOTALS = /[\d,]+ tokens (saved|more than without Herald)/;
const DOWN_ENDPOINT_NAME = 'e2e-down';
/** The options Copilot's agent sends every extension-provided model (extChatEndpoint.ts); the driver sends them too. */
const COPILOT_INTERNAL_OPTIONS = ['_capturingTokenCorrelationId', '_otelTraceContext'];
/** A real mini-swe-agent run: long observations that the optimizer masks and stashes. */
const TRAJECTORY = 'django__django-14915';
/** Herald's extension id, which names its global storage folder. */
const EXTENSION_ID = 'herald.herald';
/** Where code-server's web workbench keeps extension secrets: one sealed localStorage entry (its LocalStorageSecretStorageProvider). */
const SECRETS_ENTRY = 'secrets.provider';
const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const started = Date.now();
const timings: Record<string, number> = {};
const checks: { name: string; ok: boolean; detail: string }[] = [];

function log(message: string): void {
  console.log(`[e2e ${((Date.now() - started) / 1000).toFixed(1)}s] ${message}`);
}

function check(name: string, ok: boolean, detail = ''): void {
  checks.push({ name, ok, detail });
  log(`${ok ? 'PASS' : 'FAIL'} ${name}${detail ? `: ${detail}` : ''}`);
}

async function timed<T>(name: string, run: () => Promise<T> | T): Promise<T> {
  const start = Date.now();
  try {
    return await run();
  } finally {
    timings[name] = Date.now() - start;
  }
}

async function main(): Promise<number> {
  fs.rmSync(ARTIFACTS, { recursive: true, force: true });
  fs.mkdirSync(ARTIFACTS, { recursive: true });

  const cache = await timed('setup', () => {
    const result = spawnSync('bash', [path.join(ROOT, 'scripts/e2e/setup.sh')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (result.status !== 0) throw new Error(`scripts/e2e/setup.sh failed with ${result.status}`);
    return result.stdout.trim().split('\n').pop()!;
  });
  const node22 = path.join(cache, 'node', 'bin', 'node');
  const entry = path.join(cache, 'code-server', 'out', 'node', 'entry.js');

  const version = (JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
  const vsix = path.join(ROOT, `herald-${version}.vsix`);
  await timed('package', () => {
    if (process.env.HERALD_E2E_SKIP_PACKAGE === '1' && fs.existsSync(vsix)) return;
    // package.json names no repository, so vsce cannot rewrite the README's relative screenshot link; it stays relative and
    // resolves inside the installed extension (the screenshot ships for that reason).
    const result = spawnSync('npm', ['run', 'package'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    if (result.status !== 0) throw new Error(`npm run package failed:\n${result.stdout.slice(-2000)}`);
  });
  log(`packaged ${path.relative(ROOT, vsix)} (${(fs.statSync(vsix).size / 1e6).toFixed(1)} MB)`);

  const temporary = fs.mkdtempSync(path.join(os.tmpdir(), 'herald-e2e-'));
  const userData = path.join(temporary, 'user');
  const extensions = path.join(temporary, 'extensions');
  const workspace = path.join(temporary, 'workspace');
  const fake = await startFakeServer();
  // Random per run, so a hit can only come from this run; never printed in full.
  const canary = `sk-herald-canary-${randomBytes(16).toString('hex')}`;
  let keySet = false;
  // The endpoint's requests of the two priced turns, for the export's figures (checkBilledFigures).
  let turns: EndpointTurns | undefined;
  let report: string | undefined;
  let server: ChildProcess | undefined;
  let browser: Awaited<ReturnType<typeof chromium.launch>> | undefined;
  try {
    const conversation = prepareWorkspace(workspace);
    writeSettings(userData, fake, await freePort());
    await timed('install', () => installExtensions(node22, entry, vsix, extensions, userData));

    const port = await freePort();
    server = spawn(node22, [entry, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--extensions-dir', extensions, '--user-data-dir', userData, workspace], {
      stdio: ['ignore', fs.openSync(path.join(ARTIFACTS, 'code-server.log'), 'w'), fs.openSync(path.join(ARTIFACTS, 'code-server.err.log'), 'w')],
      detached: true,
    });
    await timed('server-start', () => waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000));
    log(`code-server on port ${port}`);

    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: process.env.HERALD_E2E_HEADED !== '1', args: CHROMIUM_FLAGS });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await timed('workbench', async () => {
      await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`);
      await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
      // Herald is active once its status bar item shows.
      await page.locator('.statusbar-item', { hasText: 'Herald' }).first().waitFor({ timeout: 90_000 });
    });
    check('Herald activates and shows its status bar item', true);
    await timed('welcome', () => checkWelcome(page));
    await timed('enable-models', () => checkEnableModels(page));
    keySet = await timed('set-key', () => setEndpointKey(page, canary));

    const original = await timed('chat-request', () => sendRequest(page, workspace, fake, conversation));
    const retrieveRequests = fake.requests.length;
    await timed('chat-request-direct', () => sendDirectRequest(workspace, fake, conversation, (command, file) => driverResponse(page, workspace, command, file), check));
    turns = { conversation, retrieve: [0, retrieveRequests], direct: [retrieveRequests, fake.requests.length], fake };
    checkKeySent(fake, canary);
    checkInternalOptions(fake);
    await timed('chat-request-vscode-model', () => sendRequestToEcho(page, workspace, conversation));
    await timed('endpoint-down', () => sendRequestToDown(page, workspace));
    await timed('copilot-hosted', () => sendRequestToCopilot(page, workspace));
    await timed('decisions-view', () => checkDecisions(page));
    await timed('retrieve', () => checkRetrieve(page, fake.askedHandle(), original));
    await timed('library-view', () => checkLibrary(page));
    await timed('tools', () => checkTools(page, workspace));
    report = await timed('commands', () => checkCommands(page, workspace, turns));
    await timed('reload', () => checkReload(page, port, workspace));
    await timed('new-user-tour', () => tour(page));
    checkStashModes(userData);
    if (keySet) await timed('secret-storage', () => checkSecretStorage(page, userData, canary));
  } finally {
    await browser?.close().catch(() => undefined);
    if (server?.pid) await stopServer(server);
    // After the server is gone, so its logs and state are on disk.
    checkNoNavigatorProbe(userData);
    if (keySet) await timed('secret-scan', () => checkNoLeak(canary, [userData, workspace, ...(report ? [report] : []), path.join(ARTIFACTS, 'code-server.log'), path.join(ARTIFACTS, 'code-server.err.log')], userData, report, fake.url));
    await fake.close();
    fs.writeFileSync(path.join(ARTIFACTS, 'fake-server-requests.json'), JSON.stringify(fake.requests.map(summarizeRequest), null, 2));
    if (process.env.HERALD_E2E_KEEP !== '1') fs.rmSync(temporary, { recursive: true, force: true });
    else log(`kept ${temporary}`);
  }
  // Issue 27's walks from a fresh install, each in a VS Code of its own (test/e2e/checks/editorWalks.ts).
  await timed('walks', () => runEditorWalks({ node22, entry, vsix, artifacts: ARTIFACTS, check, log }));
  // Retry, /context, the timeout, the picker and the reload (test/e2e/checks/modelPathWalk.ts).
  await timed('model-path-walk', () => runModelPathWalk({ node22, entry, vsix, artifacts: ARTIFACTS, check, log }));
  // Issue 28's polish and what the settings disclose (test/e2e/checks/polishWalk.ts).
  await timed('polish-walk', () => runPolishWalk({ node22, entry, vsix, artifacts: ARTIFACTS, check, log }));
  const failed = checks.filter((entry) => !entry.ok);
  const summary = { ok: failed.length === 0, totalMs: Date.now() - started, timings, checks };
  fs.writeFileSync(path.join(ARTIFACTS, 'summary.json'), JSON.stringify(summary, null, 2));
  log(`${checks.length - failed.length}/${checks.length} checks passed; timings (ms): ${JSON.stringify(timings)}`);
  return failed.length === 0 ? 0 : 1;
}

/** The workspace: the sample library in `.herald/`, and the conversation the driver sends. */
function prepareWorkspace(workspace: string): { role: string; content: string }[] {
  fs.mkdirSync(path.join(workspace, '.e2e'), { recursive: true });
  fs.cpSync(path.join(__dirname, 'fixtures', 'sample-library'), path.join(workspace, '.herald'), { recursive: true });
  fs.writeFileSync(path.join(workspace, 'README.md'), '# Herald end-to-end workspace\n');
  const messages = conversationMessages();
  fs.writeFileSync(path.join(workspace, '.e2e', 'request.json'), JSON.stringify({ modelId: `endpoint:${ENDPOINT_NAME}`, messages }));
  return messages;
}

/** The first 30 messages of a real agent run (system folded into the first user message), or a synthetic one without shared data. */
function conversationMessages(): { role: string; content: string }[] {
  if (hasSharedData()) {
    const trajectory = loadTrajectory(TRAJECTORY) as unknown as { messages: { role: string; content: unknown }[] };
    const messages = trajectory.messages.slice(0, 30).map((message) => ({ role: message.role === 'assistant' ? 'assistant' : 'user', content: typeof message.content === 'string' ? message.content : JSON.stringify(message.content) }));
    // End on the user's side, as a caller's request does.
    while (messages.length > 0 && messages[messages.length - 1]!.role === 'assistant') messages.pop();
    return messages;
  }
  const messages: { role: string; content: string }[] = [{ role: 'user', content: 'Fix the failing test in the parser.' }];
  for (let turn = 0; turn < 8; turn++) {
    messages.push({ role: 'assistant', content: `Running the tests, attempt ${turn}.\n\n\`\`\`bash\npytest -x tests/test_parser.py\n\`\`\`` });
    const lines = Array.from({ length: 300 }, (_, line) => `tests/test_parser.py::test_case_${line} PASSED [${line}%] attempt ${turn}`);
    messages.push({ role: 'user', content: `<returncode>0</returncode>\n<output>\n${lines.join('\n')}\n</output>` });
  }
  return messages;
}

function writeSettings(userData: string, fake: FakeServer, closedPort: number): void {
  fs.mkdirSync(path.join(userData, 'User'), { recursive: true });
  const settings = {
    'security.workspace.trust.enabled': false,
    'workbench.startupEditor': 'none',
    'workbench.tips.enabled': false,
    'extensions.ignoreRecommendations': true,
    'herald.endpoints': [
      { name: ENDPOINT_NAME, kind: 'openai', url: fake.url, model: FAKE_MODEL, maxInputTokens: 200_000 },
      { name: DOWN_ENDPOINT_NAME, kind: 'openai', url: `http://127.0.0.1:${closedPort}/v1`, model: FAKE_MODEL },
    ],
    // A price for the fake model, so the provider's usage becomes money.
    'herald.prices': { [FAKE_MODEL]: FAKE_PRICE },
    // The stand-in Copilot model is listed without the one-time notice (its text has a unit test).
    'herald.copilotHostedModels': 'show',
  };
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify(settings, null, 2));
}

function installExtensions(node22: string, entry: string, vsix: string, extensions: string, userData: string): void {
  const result = spawnSync(node22, [entry, '--install-extension', vsix, '--extensions-dir', extensions, '--user-data-dir', userData], { encoding: 'utf8' });
  fs.writeFileSync(path.join(ARTIFACTS, 'install.log'), `${result.stdout}\n${result.stderr}`);
  if (result.status !== 0 || !/successfully installed/i.test(result.stdout + result.stderr)) throw new Error(`installing the VSIX failed: ${result.stdout} ${result.stderr}`);
  check('the packaged VSIX installs', true);
  // The test-only driver is copied in unpacked; deleting extensions.json makes code-server rescan the folder.
  fs.cpSync(path.join(__dirname, 'fixtures', 'driver-extension'), path.join(extensions, 'herald-e2e.driver-0.0.1'), { recursive: true });
  fs.rmSync(path.join(extensions, 'extensions.json'), { force: true });
}

async function sendRequest(page: Page, workspace: string, fake: FakeServer, conversation: { role: string; content: string }[]): Promise<string> {
  const output = path.join(workspace, '.e2e', 'response.json');
  await runCommand(page, 'Herald E2E: Send Request Through Herald');
  const deadline = Date.now() + 90_000;
  while (!fs.existsSync(output) && Date.now() < deadline) {
    // A consent dialog for language-model access, if this VS Code asks: allow it.
    const allow = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Allow/ });
    if (await allow.count().catch(() => 0)) await allow.first().click().catch(() => undefined);
    await page.waitForTimeout(500);
  }
  await page.screenshot({ path: path.join(ARTIFACTS, '01-after-request.png') });
  if (!fs.existsSync(output)) throw new Error('the driver wrote no response within 90 s');
  const response = JSON.parse(fs.readFileSync(output, 'utf8')) as { ok: boolean; text?: string; toolCalls?: unknown[]; error?: string; model?: string };
  check('a chat request through "Herald · e2e-fake" completes', response.ok, response.error ?? `model ${response.model}, answer "${response.text?.trim()}"`);
  check('the answer streams back from the endpoint', (response.text ?? '').includes('E2E answer'), response.text ?? '');
  check('the caller never sees herald_retrieve', (response.toolCalls ?? []).length === 0, JSON.stringify(response.toolCalls));
  const first = fake.requests[0] as { messages?: { content: unknown }[]; tools?: { function: { name: string } }[] } | undefined;
  const sentText = JSON.stringify(first?.messages ?? []);
  const originalText = JSON.stringify(conversation);
  check('the endpoint received a smaller request than the caller sent', sentText.length < originalText.length, `${originalText.length} → ${sentText.length} characters`);
  check('the request carried a marker and offered herald_retrieve', fake.askedHandle() !== undefined && (first?.tools ?? []).some((tool) => tool.function.name === 'herald_retrieve'), fake.askedHandle() ?? 'no marker');
  const second = fake.requests[1] as { messages?: { role: string; content: unknown; tool_call_id?: string }[] } | undefined;
  const toolMessage = second?.messages?.find((message) => message.role === 'tool');
  const original = typeof toolMessage?.content === 'string' ? toolMessage.content : '';
  check(
    'Herald answered herald_retrieve in the same turn with the original, byte for byte (an earlier elision inside it stays its own marker, retrievable in turn)',
    original.length > 0 && conversation.some((message) => holdsWithNestedMarkers(message.content, original)),
    `${fake.requests.length} endpoint calls, original of ${original.length} characters, ${findMarkers(original).length} nested marker(s)`,
  );
  return original;
}

/**
 * Whether `text` holds `original` byte for byte, where each Herald marker inside `original` (an
 * elision made before the one retrieved, stashed under its own handle) stands for some text.
 */
function holdsWithNestedMarkers(text: string, original: string): boolean {
  const markers = findMarkers(original);
  if (markers.length === 0) return text.includes(original);
  const pieces: string[] = [];
  let at = 0;
  for (const marker of markers) {
    pieces.push(original.slice(at, marker.start));
    at = marker.end;
  }
  pieces.push(original.slice(at));
  let from = text.indexOf(pieces[0]!);
  if (from < 0) return false;
  from += pieces[0]!.length;
  for (const piece of pieces.slice(1)) {
    const found = text.indexOf(piece, from);
    if (found < 0) return false;
    from = found + piece.length;
  }
  return true;
}

/** Through "Herald · Echo", which wraps a model another extension provides (the vscode.lm path). */
async function sendRequestToEcho(page: Page, workspace: string, conversation: { role: string; content: string }[]): Promise<void> {
  const output = path.join(workspace, '.e2e', 'response-echo.json');
  await runCommand(page, 'Herald E2E: Send Request Through Herald To Echo');
  const deadline = Date.now() + 60_000;
  while (!fs.existsSync(output) && Date.now() < deadline) await page.waitForTimeout(500);
  if (!fs.existsSync(output)) throw new Error('the driver wrote no echo response within 60 s');
  const response = JSON.parse(fs.readFileSync(output, 'utf8')) as { ok: boolean; text?: string; error?: string; model?: string };
  check('Herald offers "Herald · Echo" for a model another extension provides, and forwards to it', response.ok && response.model === 'Herald · Echo' && (response.text ?? '').startsWith('echo: '), response.error ?? `${response.model}: "${response.text}"`);
  const echo = JSON.parse(fs.readFileSync(path.join(workspace, '.e2e', 'echo.json'), 'utf8')) as { messages: number; characters: number; tools: string[] };
  const sent = conversation.reduce((sum, message) => sum + message.content.length, 0);
  check('the wrapped model received the optimized request', echo.messages === conversation.length && echo.characters < sent, `${conversation.length} messages; ${sent} → ${echo.characters} characters; tools offered: ${echo.tools.join(', ') || 'none'}`);
}

/** What the driver wrote after a request: the answer or the error, and Herald's totals before and after it. */
interface DriverResponse {
  ok: boolean;
  text?: string;
  error?: string;
  model?: string;
  totalsBefore?: Totals;
  totalsAfter?: Totals;
}

interface Totals {
  requests: number;
  tokensSaved: number;
  failures: number;
  premiumRequests: number;
  billedUsd: number;
  unoptimizedUsd: number;
  pricedRequests: number;
}

interface SavedReport {
  schema: number;
  totals: Totals;
  requests: ({ model: string; status: string; premiumRequests?: number; billing?: string } & PricedRecord)[];
}

async function driverResponse(page: Page, workspace: string, command: string, file: string, timeoutMs = 60_000): Promise<DriverResponse> {
  const output = path.join(workspace, '.e2e', file);
  await runCommand(page, command);
  const deadline = Date.now() + timeoutMs;
  while (!fs.existsSync(output) && Date.now() < deadline) await page.waitForTimeout(500);
  if (!fs.existsSync(output)) throw new Error(`the driver wrote no ${file} within ${timeoutMs / 1000} s`);
  return JSON.parse(fs.readFileSync(output, 'utf8')) as DriverResponse;
}

/** Copilot's agent passes its internal options to every extension model; an endpoint must never see them. */
function checkInternalOptions(fake: FakeServer): void {
  const leaked = fake.requests.filter((request) => COPILOT_INTERNAL_OPTIONS.some((name) => JSON.stringify(request).includes(name)));
  check("Copilot's internal model options (_capturingTokenCorrelationId, _otelTraceContext) never reach the endpoint", fake.requests.length > 0 && leaked.length === 0, `${fake.requests.length} endpoint requests, ${leaked.length} with them; the driver sent them on every request`);
}

/** An endpoint nothing listens on: the caller gets an error that names it and says what to do, and nothing counts as saved. */
async function sendRequestToDown(page: Page, workspace: string): Promise<void> {
  const response = await driverResponse(page, workspace, 'Herald E2E: Send Request Through Herald To The Down Endpoint', 'response-down.json');
  check('a request to a down endpoint fails with which endpoint, which URL, what happened and what to do', !response.ok && new RegExp(`endpoint "${DOWN_ENDPOINT_NAME}" \\(http://127\\.0\\.0\\.1:\\d+/v1/chat/completions\\) refused the connection.*Start the server`).test(response.error ?? ''), response.error ?? 'it did not fail');
  const before = response.totalsBefore;
  const after = response.totalsAfter;
  check(
    'the failed request is counted as a failure and adds nothing to the tokens saved',
    before !== undefined && after !== undefined && after.tokensSaved === before.tokensSaved && after.failures === before.failures + 1 && after.requests === before.requests + 1,
    before && after ? `tokens saved ${before.tokensSaved} → ${after.tokensSaved}, failures ${before.failures} → ${after.failures}` : 'no totals from Herald',
  );
}

/** A Copilot-hosted model (the driver's stand-in, vendor "copilot"): each request Herald sends is a premium request, its retrieve round included. */
async function sendRequestToCopilot(page: Page, workspace: string): Promise<void> {
  const response = await driverResponse(page, workspace, 'Herald E2E: Send Request Through Herald To The Copilot Stand-in', 'response-copilot.json');
  const calls = fs.existsSync(path.join(workspace, '.e2e', 'stand-in.json')) ? (JSON.parse(fs.readFileSync(path.join(workspace, '.e2e', 'stand-in.json'), 'utf8')) as { tools: string[]; modelOptions: Record<string, unknown> }[]) : [];
  check('"Herald · Copilot Stand-in" answers, after Herald answered its retrieve call in the turn', response.ok && response.text === 'stand-in answer' && calls.length === 2 && calls[0]!.tools.includes('herald_retrieve'), response.error ?? `${calls.length} requests to the stand-in; "${response.text}"`);
  const premium = (response.totalsAfter?.premiumRequests ?? 0) - (response.totalsBefore?.premiumRequests ?? 0);
  check('the turn counts 2 premium requests (the request and Herald\'s retrieve round)', premium === 2, `${premium} premium requests added`);
  check("Herald's own marker option never reaches the model", calls.every((call) => !('heraldOrigin' in call.modelOptions)), JSON.stringify(calls.map((call) => Object.keys(call.modelOptions))));
}

/** The exported report carries premium requests and money per request. */
function checkReportCosts(saved: SavedReport | undefined, turns: EndpointTurns | undefined): void {
  const premium = saved?.requests.find((request) => request.billing === 'premium-requests');
  const down = saved?.requests.find((request) => request.model === DOWN_ENDPOINT_NAME);
  check('the export has premium requests per request (2 for the Copilot-hosted turn)', premium?.premiumRequests === 2 && (saved?.totals.premiumRequests ?? 0) >= 2, premium ? `${premium.model}: ${premium.premiumRequests}` : 'none');
  checkBilledFigures(saved?.requests.filter((request) => request.model === ENDPOINT_NAME && request.cost !== undefined) ?? [], turns, check);
  check('the export records the down endpoint\'s request as failed', down?.status === 'failed', down?.status ?? 'missing');
}

/** "Herald: Enable Herald Models" is the permanent way to Manage Models (the welcome notification shows only once). */
async function checkEnableModels(page: Page): Promise<void> {
  await runCommand(page, 'Herald: Enable Herald Models');
  await page.waitForTimeout(2500);
  const body = await page.locator('.monaco-workbench').innerText();
  check('"Herald: Enable Herald Models" opens Manage Models, which lists the Herald models', body.includes(ENDPOINT_NAME), body.includes(ENDPOINT_NAME) ? `Herald · ${ENDPOINT_NAME} listed` : body.slice(0, 200).replace(/\s+/g, ' '));
  await page.screenshot({ path: path.join(ARTIFACTS, '00-enable-models.png') });
  await page.keyboard.press('Escape');
  await runCommand(page, 'View: Close All Editors');
}

/** A window reload keeps the decisions: the same requests and totals come back from Herald's storage. */
async function checkReload(page: Page, port: number, workspace: string): Promise<void> {
  await runCommand(page, 'Herald: Show Decisions');
  const before = await findFrame(page, 'details.request', 30_000);
  const rowsBefore = await before.locator('details.request').count();
  const headerBefore = (await before.locator('section.summary').innerText()).replace(/\s+/g, ' ');
  await runCommand(page, 'Developer: Reload Window');
  await page.waitForTimeout(3000);
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  await page.locator('.statusbar-item', { hasText: STATUS_TOTALS }).first().waitFor({ timeout: 90_000 });
  await runCommand(page, 'Herald: Show Decisions');
  const after = await findFrame(page, 'details.request', 30_000);
  const rowsAfter = await after.locator('details.request').count();
  const headerAfter = (await after.locator('section.summary').innerText()).replace(/\s+/g, ' ');
  const tokens = (text: string): string => text.match(VIEW_TOTALS)?.[0] ?? '';
  check('a window reload keeps the decisions and their totals', rowsAfter === rowsBefore && rowsBefore >= 4 && tokens(headerAfter) === tokens(headerBefore) && tokens(headerBefore) !== '', `${rowsBefore} → ${rowsAfter} requests; "${tokens(headerBefore)}" → "${tokens(headerAfter)}"`);
  await page.screenshot({ path: path.join(ARTIFACTS, '09-after-reload.png') });
  void port;
  void workspace;
}

async function checkDecisions(page: Page): Promise<void> {
  await runCommand(page, 'Herald: Show Decisions');
  const frame = await findFrame(page, 'details.request', 30_000);
  const text = (await frame.locator('body').innerText()).replace(/\s+/g, ' ');
  // Folded requests are not rendered, so their lines are read from the page's text.
  const all = ((await frame.locator('body').textContent()) ?? '').replace(/\s+/g, ' ');
  check('the Decisions view lists the request with its model', text.includes(`${ENDPOINT_NAME}`), text.slice(0, 200));
  // A retrieve round sends the shortened request and the original piece again: the session's tokens are what was sent, saved or more.
  check("the Decisions view shows the session's tokens against the originals, saved or more", VIEW_TOTALS.test(text) && !text.startsWith('0 tokens saved'), text.match(VIEW_TOTALS)?.[0] ?? '');
  const rows = await frame.locator('li.decision').count();
  const handles = await frame.locator('button.handle').count();
  check("the Decisions view lists every strategy's decision and its handles", rows > 0 && handles > 0, `${rows} decisions, ${handles} handles`);
  const costs = await frame.locator('.cost').allTextContents();
  check('the Decisions view shows premium requests for the Copilot-hosted turn, with GitHub\'s multiplier table', /premium requests? × the model's multiplier/.test(text) && costs.some((line) => /^2 premium requests/.test(line)) && text.includes("GitHub's table"), costs.find((line) => /premium/.test(line)) ?? 'none');
  check("the Decisions view shows the provider's billed tokens and money next to the estimate without Herald", costs.some((line) => /billed [\d,]+ input \+ [\d,]+ cached .*= \$[\d.]+, ≈ \$[\d.]+ without Herald/.test(line)) && /\$[\d.]+ billed, ≈ \$[\d.]+ without Herald/.test(text), costs.find((line) => /billed/.test(line)) ?? 'none');
  check('the Decisions view says the failed request saved nothing', /failed \(saved nothing\)/.test(text) && /The model failed, so nothing was saved/.test(all), text.match(/\d+ failed \(saved nothing\)/)?.[0] ?? '');
  await page.screenshot({ path: path.join(ARTIFACTS, '02-decisions.png') });
  // The README's picture: the Decisions view alone, with the Library folded.
  const libraryHeader = page.locator('.pane-header', { hasText: 'Library' }).first();
  await libraryHeader.click();
  const decisionsFrame = await findFrame(page, 'details.request', 5_000);
  // The endpoint's request, with its billed tokens and money, open; the others folded.
  for (const open of await decisionsFrame.locator('details.request[open] > summary').all()) await open.click().catch(() => undefined);
  await decisionsFrame.locator('details.request > summary', { hasText: ENDPOINT_NAME }).filter({ hasNotText: DOWN_ENDPOINT_NAME }).first().click().catch(() => undefined);
  await page.waitForTimeout(500);
  await page.locator('.part.sidebar').screenshot({ path: path.join(ARTIFACTS, 'sidebar.png') });
  await libraryHeader.click();
}

async function checkRetrieve(page: Page, handle: string | undefined, original: string): Promise<void> {
  if (!handle || original.length === 0) {
    check('Retrieve Elided Content opens the original', false, 'no handle to retrieve');
    return;
  }
  await runCommand(page, 'Herald: Retrieve Elided Content');
  const input = page.locator('.quick-input-widget input');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: handle }).first().waitFor({ timeout: 15_000 });
  // Pasted as a whole marker, which matches no row by itself: the box offers the handle it holds.
  await input.fill(`[herald: 12 lines elided · retrieve ${handle}]`);
  const offered = await page.locator('.quick-input-list .monaco-list-row', { hasText: `Open ${handle}` }).first().waitFor({ timeout: 5_000 }).then(() => true, () => false);
  check('Retrieve Elided Content takes a pasted marker and offers its handle', offered, '');
  await page.keyboard.press('Enter');
  await page.locator('.tabs-container .tab.active', { hasText: `Original ${handle}` }).first().waitFor({ timeout: 15_000 });
  const frame = await findFrame(page, `pre.original[data-handle="${handle}"]`, 15_000);
  const shown = (await frame.locator('pre.original').textContent()) ?? '';
  const textEditors = await page.locator('.editor-group-container.active .editor-instance .monaco-editor').count();
  check('Retrieve Elided Content opens the original, byte for byte, in a read-only view named after its handle', shown === original, `${shown.length} of ${original.length} characters shown`);
  check("the original opens where chat does not attach it (a webview, not a text editor)", textEditors === 0, `${textEditors} text editors in the active group`);
  await page.screenshot({ path: path.join(ARTIFACTS, '03-retrieve.png') });
  await runCommand(page, 'View: Close All Editors');
}

async function checkLibrary(page: Page): Promise<void> {
  await runCommand(page, 'Herald: Open Library');
  const frame = await findFrame(page, 'li.page', 30_000);
  const titles = await frame.locator('li.page button.link').allInnerTexts();
  const expected = ['Refund policy', 'Invoice numbering', 'Code review checklist', 'Release notes style'];
  check('the Library view lists the sample library\'s pages', expected.every((title) => titles.includes(title)), titles.join(', '));
  const text = await frame.locator('body').innerText();
  check('the Library view shows folders, types and flags', text.includes('billing/') && text.includes('engineering/') && text.includes('rule') && text.includes('draft'), '');
  await page.screenshot({ path: path.join(ARTIFACTS, '04-library.png') });
  await frame.locator('input[type=search]').fill('kubernetes cluster autoscaling');
  await frame.locator('input[type=search]').press('Enter');
  await frame.locator('.nothing-found').waitFor({ timeout: 10_000 }).catch(() => undefined);
  const nothing = await frame.locator('.nothing-found').count();
  check('a search with no match says "Nothing found" and lists the nearest pages', nothing > 0 && (await frame.locator('.results li.page').count()) > 0, '');
  await frame.locator('input[type=search]').fill('refund window after a downgrade');
  await frame.locator('input[type=search]').press('Enter');
  await page.waitForTimeout(1000);
  const results = await frame.locator('.results li.page button.link').allInnerTexts();
  check('a matching search finds the page', results.includes('Refund policy'), results.join(', '));
  await page.screenshot({ path: path.join(ARTIFACTS, '05-library-search.png') });
}

/** The first-run notification, and where it leads: the Manage Models editor that lists Herald's models. */
async function checkWelcome(page: Page): Promise<void> {
  const toast = page.locator('.notification-toast', { hasText: 'Herald is ready' });
  const shown = await toast.first().waitFor({ timeout: 15_000 }).then(() => true, () => false);
  await page.screenshot({ path: path.join(ARTIFACTS, '00-welcome.png') });
  check('a first-run notification explains how to enable the Herald models', shown, '');
  if (!shown) return;
  await toast.locator('.monaco-button', { hasText: 'Manage Models' }).first().click();
  await page.waitForTimeout(2500);
  const body = await page.locator('.monaco-workbench').innerText();
  check('"Manage Models" opens a view that lists the Herald models', body.includes('Herald'), body.includes('e2e-fake') ? 'Herald · e2e-fake listed' : '');
  await page.screenshot({ path: path.join(ARTIFACTS, '00-manage-models.png') });
  await page.keyboard.press('Escape');
  await runCommand(page, 'View: Close All Editors');
}

/** Herald's four tools, invoked through vscode.lm.invokeTool as an agent host does. */
async function checkTools(page: Page, workspace: string): Promise<void> {
  const output = path.join(workspace, '.e2e', 'tools.json');
  await runCommand(page, 'Herald E2E: Invoke Herald Tools');
  const deadline = Date.now() + 60_000;
  while (!fs.existsSync(output) && Date.now() < deadline) await page.waitForTimeout(500);
  if (!fs.existsSync(output)) throw new Error('the driver wrote no tool results within 60 s');
  const results = JSON.parse(fs.readFileSync(output, 'utf8')) as Record<string, string> & { listed: string[] };
  check('the three tools are registered, and herald_retrieve is not (every Herald model answers it inside the turn)', ['herald_get_context', 'herald_read_page', 'herald_filter_context'].every((name) => results.listed.includes(name)) && !results.listed.includes('herald_retrieve'), results.listed.join(', '));
  check('herald_get_context returns the library bundle for a task', results.getContext!.includes('Refund') && !results.getContext!.startsWith('THREW'), results.getContext!.slice(0, 120).replace(/\n/g, ' '));
  check('herald_read_page returns a page in full', results.readPage!.includes('INV-') , results.readPage!.slice(0, 80).replace(/\n/g, ' '));
  const filtered = results.filter!.startsWith('THREW') ? undefined : (JSON.parse(results.filter!) as { kept: { id: string }[] });
  check('herald_filter_context keeps the relevant candidate and drops the unrelated one', filtered !== undefined && filtered.kept.some((item) => item.id === 'a') && !filtered.kept.some((item) => item.id === 'b'), results.filter!.slice(0, 160).replace(/\n/g, ' '));
}

/** The commands a new user runs from the palette, each checked for its effect. */
/** Returns the path of the exported savings report, if one was written. */
async function checkCommands(page: Page, workspace: string, turns: EndpointTurns | undefined): Promise<string | undefined> {
  const heraldStatus = async (): Promise<string> => (await page.locator('.statusbar-item').allInnerTexts()).filter((text) => /herald/i.test(text) || STATUS_TOTALS.test(text)).join(' | ');
  const waitForStatus = async (pattern: RegExp): Promise<string> => {
    const deadline = Date.now() + 10_000;
    let text = await heraldStatus();
    while (!pattern.test(text) && Date.now() < deadline) {
      await page.waitForTimeout(300);
      text = await heraldStatus();
    }
    return text;
  };
  await runCommand(page, 'Herald: Toggle Optimizer');
  const off = await waitForStatus(/Herald off/);
  await runCommand(page, 'Herald: Toggle Optimizer');
  const onAgain = await waitForStatus(STATUS_TOTALS);
  check('Toggle Optimizer turns the optimizer off and on (status bar follows)', /Herald off/.test(off) && STATUS_TOTALS.test(onAgain), `off: "${off}", on again: "${onAgain}"`);

  await runCommand(page, 'Herald: Reindex Library');
  const reindexed = await page.locator('.notification-toast', { hasText: 'library reindexed: 4 pages' }).first().waitFor({ timeout: 10_000 }).then(() => true, () => false);
  check('Reindex Library reports the pages it found', reindexed, '');

  await runCommand(page, 'Herald: Manage Endpoints');
  await page.locator('.quick-input-list .monaco-list-row').first().waitFor({ timeout: 10_000 });
  const choices = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
  check('Manage Endpoints offers to add an endpoint and to set the key of the configured one', choices.some((choice) => choice.includes('Add an endpoint')) && choices.some((choice) => choice.includes('e2e-fake')), choices.map((choice) => choice.split('\n')[0]).join(' | '));
  await page.screenshot({ path: path.join(ARTIFACTS, '08-manage-endpoints.png') });
  await page.keyboard.press('Escape');

  await runCommand(page, 'Herald: New Library Page');
  const input = page.locator('.quick-input-widget input');
  await input.waitFor({ timeout: 10_000 });
  await page.waitForTimeout(300);
  await input.fill('Deployment checklist');
  await page.keyboard.press('Enter');
  await page.locator('.quick-input-list .monaco-list-row', { hasText: 'process' }).first().waitFor({ timeout: 10_000 });
  await input.fill('process');
  await page.keyboard.press('Enter');
  const created = path.join(workspace, '.herald', 'deployment-checklist.md');
  const deadline = Date.now() + 10_000;
  while (!fs.existsSync(created) && Date.now() < deadline) await page.waitForTimeout(300);
  check('New Library Page creates a page with front matter and opens it', fs.existsSync(created) && fs.readFileSync(created, 'utf8').includes('type: process'), path.relative(workspace, created));

  const report = path.join(workspace, 'herald-savings.json');
  // code-server's save dialog is a quick input prefilled with a path (the palette uses the same widget, so wait for the path).
  const dialogOpen = async (): Promise<boolean> =>
    page
      .waitForFunction(() => {
        const field = document.querySelector<HTMLInputElement>('.quick-input-widget input');
        return field !== null && field.offsetParent !== null && field.value.startsWith('/');
      }, undefined, { timeout: 15_000 })
      .then(() => true, () => false);
  // On a loaded machine the save dialog can accept its own suggested path (a .csv in the
  // workspace) before the typed one lands: the command then names that file in its notification.
  // A JSON report written elsewhere is read from there; a CSV one means the typed path was lost,
  // and the export is done again (at most three times).
  let written = report;
  for (let round = 0; round < 3 && !fs.existsSync(report); round++) {
    for (let attempt = 0; attempt < 2; attempt++) {
      await runCommand(page, 'Herald: Export Savings Report');
      if (await dialogOpen()) break;
      await page.screenshot({ path: path.join(ARTIFACTS, `export-attempt-${round}-${attempt}.png`) });
    }
    await page.waitForTimeout(800);
    await input.fill(report);
    await page.waitForTimeout(500);
    await page.keyboard.press('Enter');
    const saveDeadline = Date.now() + 10_000;
    let confirmed = false;
    while (!fs.existsSync(report) && Date.now() < saveDeadline) {
      await page.waitForTimeout(300);
      // The dialog may first complete the path; a second Enter saves.
      if (!confirmed && Date.now() > saveDeadline - 7_000) {
        confirmed = true;
        await page.screenshot({ path: path.join(ARTIFACTS, `export-dialog-${round}.png`) });
        await page.keyboard.press('Enter');
      }
    }
    if (fs.existsSync(report)) break;
    const toast = await page.locator('.notifications-toasts', { hasText: 'savings report with' }).last().textContent({ timeout: 5_000 }).catch(() => null);
    // The toast's text runs on into its buttons' ("….json.Source: Herald"): the path ends at its extension.
    const named = /written to (\/\S+?\.(?:json|csv))/.exec(toast ?? '')?.[1];
    if (named?.endsWith('.json') && fs.existsSync(named)) {
      written = named;
      break;
    }
    await page.keyboard.press('Escape');
  }
  const saved = fs.existsSync(written) ? (JSON.parse(fs.readFileSync(written, 'utf8')) as SavedReport) : undefined;
  check('Export Savings Report writes the session as JSON with a schema version', saved?.schema === 3 && saved.requests.length >= 4, saved ? `${saved.requests.length} requests` : 'no file');
  checkReportCosts(saved, turns);
  await page.keyboard.press('Escape');
  return fs.existsSync(written) ? written : undefined;
}

/** What a new user sees: every Herald command in the palette, and every setting. */
async function tour(page: Page): Promise<void> {
  await page.keyboard.press('F1');
  await page.locator('.quick-input-widget input').fill('>Herald: ');
  await page.waitForTimeout(800);
  const commands = await page.locator('.quick-input-list .monaco-list-row').allInnerTexts();
  const expected = ['Retrieve Elided Content', 'Show Decisions', 'Open Library', 'New Library Page', 'Reindex Library', 'Export Savings Report', 'Toggle Optimizer', 'Manage Endpoints'];
  const listed = commands.join('\n');
  check('every Herald command is in the Command Palette', expected.every((title) => listed.includes(title)), `${commands.length} listed`);
  await page.screenshot({ path: path.join(ARTIFACTS, '06-commands.png') });
  await page.keyboard.press('Escape');
  await runCommand(page, 'Preferences: Open Settings (UI)');
  await page.locator('.settings-editor').waitFor({ timeout: 15_000 });
  // The search box is a small editor that has the focus when Settings opens.
  await page.waitForTimeout(800);
  await page.keyboard.type('@ext:herald.herald');
  await page.waitForTimeout(1500);
  const settingsText = await page.locator('.settings-editor').innerText();
  check('Herald\'s settings are listed with descriptions', settingsText.includes('Aggressiveness') && settingsText.includes('Endpoints'), '');
  await page.screenshot({ path: path.join(ARTIFACTS, '07-settings.png') });
}

/**
 * Sets the endpoint's API key the way a user does: "Herald: Manage Endpoints", "Set the API key of …", then the
 * password box. Done once the key is in secret storage (code-server's sealed entry changes) and the box is closed.
 */
async function setEndpointKey(page: Page, key: string): Promise<boolean> {
  const sealedBefore = await readSealedSecrets(page);
  const choice = page.locator('.quick-input-list .monaco-list-row', { hasText: `Set the API key of "${ENDPOINT_NAME}"` }).first();
  const password = page.locator('.quick-input-widget input[type="password"]');
  for (let attempt = 0; attempt < 3; attempt++) {
    await runCommand(page, 'Herald: Manage Endpoints');
    const picked = await choice
      .waitFor({ timeout: 10_000 })
      .then(() => choice.click({ timeout: 5_000 }))
      .then(() => true, () => false);
    // A password box (typed characters hidden) is how the key must be asked for.
    const asked = picked && (await password.waitFor({ state: 'visible', timeout: 10_000 }).then(() => true, () => false));
    if (!asked) {
      await page.screenshot({ path: path.join(ARTIFACTS, `set-key-attempt-${attempt}.png`) });
      continue;
    }
    await page.waitForTimeout(300);
    await password.fill(key);
    await password.press('Enter');
    let sealed = sealedBefore;
    const deadline = Date.now() + 10_000;
    while (Date.now() < deadline && (sealed === sealedBefore || sealed === null)) {
      await page.waitForTimeout(300);
      sealed = await readSealedSecrets(page);
    }
    const closed = !(await password.isVisible().catch(() => false));
    if (sealed !== sealedBefore && sealed !== null && closed) {
      check('Manage Endpoints asks for the key in a password box and stores it in secret storage', true, `attempt ${attempt + 1}; code-server's sealed "${SECRETS_ENTRY}" entry changed`);
      return true;
    }
    await page.screenshot({ path: path.join(ARTIFACTS, `set-key-attempt-${attempt}.png`) });
  }
  check('Manage Endpoints asks for the key in a password box and stores it in secret storage', false, 'no password box, or secret storage did not change, in three tries');
  return false;
}

/** The sealed secrets of code-server's web workbench (base64 of client key half, IV and AES-GCM ciphertext), or null. */
async function readSealedSecrets(page: Page): Promise<string | null> {
  return page.evaluate((name) => localStorage.getItem(name), SECRETS_ENTRY).catch(() => null);
}

/** Proves the key is really used: every chat request the endpoint received carried it as the bearer token. */
function checkKeySent(fake: FakeServer, key: string): void {
  const carrying = fake.headers.filter((headers) => headers.authorization === `Bearer ${key}`).length;
  check('the endpoint received the key as "Authorization: Bearer …" on every chat request', fake.headers.length > 0 && carrying === fake.headers.length, `${carrying}/${fake.headers.length} requests carried it`);
}

/** Stash entries hold prompt text: files 0600, folder closed to group and others, in the running extension. */
function checkStashModes(userData: string): void {
  const folder = path.join(userData, 'User', 'globalStorage', EXTENSION_ID, 'stash');
  if (!fs.existsSync(folder)) {
    check("Herald's stash files are readable by the user only (files 0600, folder 0700)", false, `no stash folder at ${path.relative(userData, folder)}`);
    return;
  }
  const folderMode = fs.statSync(folder).mode & 0o777;
  const files = fs.readdirSync(folder).map((name) => path.join(folder, name)).filter((file) => fs.statSync(file).isFile());
  const wrong = files.filter((file) => (fs.statSync(file).mode & 0o777) !== 0o600).map((file) => `${path.basename(file)} ${(fs.statSync(file).mode & 0o777).toString(8)}`);
  check(
    "Herald's stash files are readable by the user only (files 0600, folder 0700)",
    files.length > 0 && wrong.length === 0 && (folderMode & 0o077) === 0,
    `${files.length} files in ${path.relative(userData, folder)}, folder ${folderMode.toString(8)}${wrong.length ? `; other modes: ${wrong.slice(0, 5).join(', ')}` : ''}`,
  );
}

/**
 * Where the key is allowed to be. code-server's web workbench keeps extension secrets in one localStorage entry of the
 * browser ("secrets.provider"): JSON of all secrets, AES-256-GCM sealed with a key that is a per-seal client half
 * (stored in front of the ciphertext) XOR the server's half (the file serve-web-key-half in the user-data folder).
 * Unsealed here, it must hold the key under Herald's own name; the browser's storage must not show it readable.
 */
async function checkSecretStorage(page: Page, userData: string, key: string): Promise<void> {
  let holders: string[] = [];
  let problem = '';
  try {
    const sealed = await readSealedSecrets(page);
    if (sealed === null) throw new Error(`no "${SECRETS_ENTRY}" entry in localStorage`);
    const bytes = Buffer.from(sealed, 'base64');
    const serverHalf = fs.readFileSync(path.join(userData, 'serve-web-key-half'));
    const aesKey = Buffer.from(bytes.subarray(0, 32).map((byte, index) => byte ^ serverHalf[index]!));
    const decipher = createDecipheriv('aes-256-gcm', aesKey, bytes.subarray(32, 44));
    decipher.setAuthTag(bytes.subarray(bytes.length - 16));
    const secrets = JSON.parse(Buffer.concat([decipher.update(bytes.subarray(44, bytes.length - 16)), decipher.final()]).toString('utf8')) as Record<string, unknown>;
    holders = Object.entries(secrets).filter(([, value]) => value === key).map(([name]) => name);
  } catch (error) {
    problem = error instanceof Error ? error.message : String(error);
  }
  check(
    "the key lands in secret storage under Herald's name for the endpoint",
    holders.length === 1 && holders[0]!.includes(EXTENSION_ID) && holders[0]!.includes(`herald.endpointKey.${ENDPOINT_NAME}`),
    problem || `unsealed "${SECRETS_ENTRY}" holds it as ${holders.join(', ') || 'nothing'}`,
  );

  // Every string form a leak could take in the browser (UTF-16 is how JavaScript holds the plain form already).
  const needles = secretForms(key).filter((form) => form.name !== 'utf-16le').map((form) => form.bytes.toString('latin1'));
  // tsx keeps function names with an `__name` helper the page does not have: give it a no-op one.
  await page.evaluate('globalThis.__name ??= (target) => target').catch(() => undefined);
  // A control the scan must find: a random value planted as bytes in a database of its own (deleted afterwards).
  const control = `herald-e2e-control-${randomBytes(8).toString('hex')}`;
  const browser = await page
    .evaluate(async ({ forms, control }: { forms: string[]; control: string }) => {
      const places: string[] = [];
      const controlPlaces: string[] = [];
      let values = 0;
      const look = (where: string, text: string): void => {
        values++;
        if (forms.some((form) => text.includes(form))) places.push(where);
        if (text.includes(control)) controlPlaces.push(where);
      };
      const planted = await new Promise<IDBDatabase>((resolve, reject) => {
        const opening = indexedDB.open('herald-e2e-control', 1);
        opening.onupgradeneeded = () => opening.result.createObjectStore('values');
        opening.onsuccess = () => resolve(opening.result);
        opening.onerror = () => reject(opening.error ?? new Error('cannot create the control database'));
      });
      await new Promise<void>((resolve, reject) => {
        const transaction = planted.transaction('values', 'readwrite');
        transaction.objectStore('values').put(new TextEncoder().encode(`{"value":"${control}"}`), 'control');
        transaction.oncomplete = () => resolve();
        transaction.onerror = () => reject(transaction.error ?? new Error('cannot write the control value'));
      });
      planted.close();
      const textOf = (value: unknown): string => {
        if (typeof value === 'string') return value;
        if (value instanceof ArrayBuffer) return new TextDecoder('latin1').decode(new Uint8Array(value));
        if (ArrayBuffer.isView(value)) return new TextDecoder('latin1').decode(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        try {
          return JSON.stringify(value) ?? String(value);
        } catch {
          return String(value);
        }
      };
      for (const [name, storage] of [['localStorage', localStorage], ['sessionStorage', sessionStorage]] as const) {
        for (let index = 0; index < storage.length; index++) {
          const entry = storage.key(index) ?? '';
          look(`${name}:${entry}`, `${entry}\n${storage.getItem(entry) ?? ''}`);
        }
      }
      const databases = await indexedDB.databases();
      for (const info of databases) {
        if (!info.name) continue;
        const database = await new Promise<IDBDatabase>((resolve, reject) => {
          const opening = indexedDB.open(info.name!);
          opening.onsuccess = () => resolve(opening.result);
          opening.onerror = () => reject(opening.error ?? new Error(`cannot open ${info.name}`));
        });
        for (const storeName of Array.from(database.objectStoreNames)) {
          const [keys, entries] = await new Promise<[IDBValidKey[], unknown[]]>((resolve, reject) => {
            const transaction = database.transaction(storeName, 'readonly');
            const store = transaction.objectStore(storeName);
            const keyRequest = store.getAllKeys();
            const valueRequest = store.getAll();
            transaction.oncomplete = () => resolve([keyRequest.result, valueRequest.result]);
            transaction.onerror = () => reject(transaction.error ?? new Error(`cannot read ${storeName}`));
          });
          entries.forEach((value, index) => look(`indexedDB:${info.name}/${storeName}/${textOf(keys[index])}`, `${textOf(keys[index])}\n${textOf(value)}`));
        }
        database.close();
      }
      indexedDB.deleteDatabase('herald-e2e-control');
      return { places, controlPlaces, values, databases: databases.length };
    }, { forms: needles, control })
    .catch((error: unknown) => ({ places: [`the browser scan failed: ${error instanceof Error ? error.message : String(error)}`], controlPlaces: [], values: 0, databases: 0 }));
  const controlFound = browser.controlPlaces.some((place) => place.startsWith('indexedDB:herald-e2e-control/'));
  check(
    "the browser's storage never shows the key readable (secret storage keeps it sealed)",
    browser.places.length === 0 && controlFound,
    `${browser.values} localStorage, sessionStorage and IndexedDB values of ${browser.databases} databases read; planted control ${controlFound ? 'found' : 'NOT found'}${browser.places.length ? `; key found in ${browser.places.join(', ')}` : ''}`,
  );
}

/**
 * After every command has run and the server is gone: the key must be in no file under the user-data folder (settings,
 * logs incl. Herald's output channel, global and workspace storage incl. the stash, state databases), the workspace,
 * the exported report or code-server's own output. Nothing is excluded: code-server keeps secrets in the browser.
 */
function checkNoLeak(key: string, roots: readonly string[], userData: string, report: string | undefined, endpointUrl: string): void {
  const result = scanForSecret(roots, key);
  // A control on the same files: the endpoint's URL, which settings.json does hold, must be found.
  const control = scanForSecret(roots, endpointUrl).hits.some((hit) => hit.file === path.join(userData, 'User', 'settings.json') && hit.form === 'plain');
  const under = (folder: string): string[] => result.scanned.filter((file) => file.startsWith(folder + path.sep));
  const logs = under(path.join(userData, 'logs'));
  const heraldLogs = logs.filter((file) => /herald/i.test(path.basename(file)));
  const stash = under(path.join(userData, 'User', 'globalStorage', EXTENSION_ID, 'stash'));
  const settings = result.scanned.includes(path.join(userData, 'User', 'settings.json'));
  const reportScanned = report !== undefined && result.scanned.includes(path.resolve(report));
  fs.writeFileSync(path.join(ARTIFACTS, 'secret-scan.json'), JSON.stringify({ scanned: result.scanned, unreadable: result.unreadable, hits: result.hits, forms: secretForms(key).map((form) => form.name) }, null, 2));
  check(
    "the leak scan reads settings.json, Herald's log, the stash and the exported report, and finds a known value",
    settings && heraldLogs.length > 0 && stash.length > 0 && reportScanned && control,
    `settings.json ${settings ? 'read' : 'missing'}; ${heraldLogs.length} Herald log files of ${logs.length} logs; ${stash.length} stash files; report ${reportScanned ? 'read' : 'missing'}; the endpoint URL ${control ? 'found' : 'NOT found'} in settings.json`,
  );
  check(
    'the endpoint key appears in no file: settings, logs, storage, stash, workspace, report (plain, UTF-16, hex, base64)',
    result.hits.length === 0 && result.unreadable.length === 0,
    `${result.scanned.length} files scanned (${under(userData).length} under the user-data folder), nothing excluded (code-server seals secrets in the browser's localStorage)` +
      (result.hits.length ? `; FOUND in ${result.hits.map((hit) => `${hit.file} (${hit.form})`).join(', ')}` : '') +
      (result.unreadable.length ? `; unreadable: ${result.unreadable.map((entry) => entry.file).join(', ')}` : ''),
  );
}

/** VS Code's extension host logs every read of the global `navigator` by an extension as a PendingMigrationError; Herald's bundle makes none. */
function checkNoNavigatorProbe(userData: string): void {
  const logs = path.join(userData, 'logs');
  const files: string[] = [];
  const walk = (folder: string): void => {
    for (const entry of fs.existsSync(folder) ? fs.readdirSync(folder, { withFileTypes: true }) : []) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.log')) files.push(full);
    }
  };
  walk(logs);
  const hostLogs = files.filter((file) => /exthost/i.test(file));
  const probes = files.filter((file) => fs.readFileSync(file, 'utf8').includes('navigator is now a global'));
  check('activation logs no PendingMigrationError for `navigator`', hostLogs.length > 0 && probes.length === 0, `${hostLogs.length} extension host logs of ${files.length} read${probes.length ? `; found in ${probes.map((file) => path.relative(userData, file)).join(', ')}` : ''}`);
}

/** Stops code-server's process group and waits (up to 10 s) for it to exit, so its files are complete on disk. */
async function stopServer(server: ChildProcess): Promise<void> {
  const exited = new Promise<void>((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) resolve();
    else server.once('exit', () => resolve());
  });
  try {
    process.kill(-server.pid!, 'SIGTERM');
  } catch {
    return; // Already gone.
  }
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  // The extension host is a child in the same group; give it a moment past its parent.
  await new Promise((resolve) => setTimeout(resolve, 1_000));
}

async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  // A dialog, a webview or the chat view may hold the keyboard or take the focus back a moment after the
  // palette opened: escape, open it again (F1, the other key, then the title bar's command center) and retry.
  const openers: (() => Promise<unknown>)[] = [
    () => page.keyboard.press('F1'),
    () => page.keyboard.press('Control+Shift+P'),
    () => page.locator('.command-center-center').first().click({ timeout: 5_000 }),
    () => page.keyboard.press('F1'),
  ];
  for (const open of openers) {
    await page.keyboard.press('Escape');
    await open().catch(() => undefined);
    const filled = await input
      .waitFor({ state: 'visible', timeout: 4_000 })
      .then(() => input.fill(`>${title}`, { timeout: 5_000 }))
      .then(() => true, () => false);
    if (filled) {
      await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 15_000 });
      await page.keyboard.press('Enter');
      return;
    }
    await page.locator('.part.editor').first().click({ position: { x: 5, y: 5 } }).catch(() => undefined);
  }
  await page.screenshot({ path: path.join(ARTIFACTS, `palette-closed-${title.replace(/[^a-z]+/gi, '-')}.png`) });
  throw new Error(`Herald e2e: the command palette did not stay open to run "${title}"`);
}

/** The webview frame that shows `selector` (webviews are nested iframes). */
async function findFrame(page: Page, selector: string, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) {
      if ((await frame.locator(selector).count().catch(() => 0)) > 0) return frame;
    }
    await page.waitForTimeout(500);
  }
  throw new Error(`no webview shows ${selector} after ${timeoutMs} ms`);
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const response = await fetch(url);
      if (response.ok) return;
    } catch {
      // Not up yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms (see test/e2e/artifacts/code-server*.log)`);
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function summarizeRequest(request: Record<string, unknown>): unknown {
  const messages = (request.messages as { role: string; content: unknown }[] | undefined) ?? [];
  return { model: request.model, messages: messages.length, characters: JSON.stringify(messages).length, tools: ((request.tools as { function: { name: string } }[] | undefined) ?? []).map((tool) => tool.function.name), roles: messages.map((message) => message.role).join(' ') };
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    log(`ERROR ${error instanceof Error ? error.stack ?? error.message : String(error)}`);
    process.exit(1);
  },
);
