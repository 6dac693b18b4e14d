/**
 * A fresh VS Code for one walk of the end-to-end test: its own user data, extensions folder and
 * workspace, Herald's VSIX installed, code-server started on a free port, Chromium on the
 * workbench. Each walk starts from nothing, as a new user's first start does. The UI helpers
 * here drive the workbench as a user does (Command Palette, quick inputs, the chat view).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { chromium, type Browser, type Frame, type Locator, type Page } from 'playwright-core';

const CHROMIUM_FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];
const DRIVER = path.join(__dirname, '..', 'fixtures', 'driver-extension');
const ROOT = path.resolve(__dirname, '..', '..', '..');

/** What every walk needs: where code-server and the VSIX are, and where screenshots go. */
export interface WalkContext {
  readonly node22: string;
  readonly entry: string;
  readonly vsix: string;
  readonly artifacts: string;
  check(name: string, ok: boolean, detail?: string): void;
  log(message: string): void;
}

export interface SessionOptions {
  /** User settings (settings.json). */
  readonly settings: Record<string, unknown>;
  /** Test-only extensions to copy in unpacked, besides Herald: their folder, and npm packages of this project to copy into their node_modules. */
  readonly extensions?: readonly { readonly folder: string; readonly modules?: readonly string[] }[];
  /** Whether the e2e driver extension is installed (its echo model and, per settings, its Copilot stand-in). */
  readonly driver?: boolean;
  /** Files to create in the workspace, by relative path. */
  readonly files?: Readonly<Record<string, string>>;
  /** Extra environment for code-server (and so for the extension host). */
  readonly environment?: Readonly<Record<string, string>>;
  /** A name for the screenshots and logs of this walk. */
  readonly name: string;
}

export interface Session {
  readonly page: Page;
  readonly workspace: string;
  readonly userData: string;
  readonly home: string;
  /** When code-server was started (ms since the epoch), the walk's "fresh install" moment. */
  readonly startedAt: number;
  /** When the workbench showed Herald's status bar item. */
  readonly readyAt: number;
  screenshot(name: string): Promise<void>;
  close(): Promise<void>;
}

export async function startSession(context: WalkContext, options: SessionOptions): Promise<Session> {
  const temporary = fs.mkdtempSync(path.join(os.tmpdir(), `herald-e2e-${options.name}-`));
  const userData = path.join(temporary, 'user');
  const extensions = path.join(temporary, 'extensions');
  const workspace = path.join(temporary, 'workspace');
  const home = path.join(temporary, 'home');
  for (const folder of [userData, extensions, workspace, home, path.join(userData, 'User')]) fs.mkdirSync(folder, { recursive: true });
  fs.writeFileSync(path.join(userData, 'User', 'settings.json'), JSON.stringify({ 'security.workspace.trust.enabled': false, 'workbench.startupEditor': 'none', 'workbench.tips.enabled': false, 'extensions.ignoreRecommendations': true, ...options.settings }, null, 2));
  for (const [file, content] of Object.entries(options.files ?? {})) {
    fs.mkdirSync(path.dirname(path.join(workspace, file)), { recursive: true });
    fs.writeFileSync(path.join(workspace, file), content);
  }
  fs.mkdirSync(path.join(workspace, '.e2e'), { recursive: true });
  const install = spawnSync(context.node22, [context.entry, '--install-extension', context.vsix, '--extensions-dir', extensions, '--user-data-dir', userData], { encoding: 'utf8' });
  if (install.status !== 0) throw new Error(`installing the VSIX failed: ${install.stdout} ${install.stderr}`);
  const unpacked = [...(options.driver === false ? [] : [{ folder: DRIVER }]), ...(options.extensions ?? [])];
  for (const extension of unpacked) {
    const manifest = JSON.parse(fs.readFileSync(path.join(extension.folder, 'package.json'), 'utf8')) as { publisher: string; name: string; version: string };
    const target = path.join(extensions, `${manifest.publisher}.${manifest.name}-${manifest.version}`);
    fs.cpSync(extension.folder, target, { recursive: true });
    for (const module of extension.modules ?? []) fs.cpSync(path.join(ROOT, 'node_modules', module), path.join(target, 'node_modules', module), { recursive: true });
  }
  fs.rmSync(path.join(extensions, 'extensions.json'), { force: true });

  const port = await freePort();
  const startedAt = Date.now();
  const server: ChildProcess = spawn(context.node22, [context.entry, '--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--disable-telemetry', '--disable-update-check', '--extensions-dir', extensions, '--user-data-dir', userData, workspace], {
    stdio: ['ignore', fs.openSync(path.join(context.artifacts, `${options.name}-code-server.log`), 'w'), fs.openSync(path.join(context.artifacts, `${options.name}-code-server.err.log`), 'w')],
    detached: true,
    env: { ...process.env, HOME: home, ...options.environment },
  });
  let browser: Browser | undefined;
  const close = async (): Promise<void> => {
    await browser?.close().catch(() => undefined);
    await stopServer(server);
    // The extension host's log and Herald's own, for whoever reads a failure.
    for (const file of logFiles(path.join(userData, 'logs'))) fs.copyFileSync(file, path.join(context.artifacts, `${options.name}-${path.basename(path.dirname(file))}-${path.basename(file)}`));
    if (process.env.HERALD_E2E_KEEP !== '1') fs.rmSync(temporary, { recursive: true, force: true });
    else context.log(`kept ${temporary}`);
  };
  try {
    await waitForHttp(`http://127.0.0.1:${port}/healthz`, 60_000);
    browser = await chromium.launch({ executablePath: '/usr/bin/chromium', headless: process.env.HERALD_E2E_HEADED !== '1', args: CHROMIUM_FLAGS });
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}`, { timeout: 180_000, waitUntil: 'domcontentloaded' });
    await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
    await page.locator('.statusbar-item', { hasText: 'Herald' }).first().waitFor({ timeout: 90_000 });
    const readyAt = Date.now();
    return {
      page,
      workspace,
      userData,
      home,
      startedAt,
      readyAt,
      screenshot: (name) => page.screenshot({ path: path.join(context.artifacts, `${options.name}-${name}.png`) }).then(() => undefined, () => undefined),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Runs a command from the Command Palette, as a user does (three tries: a loaded machine may be slow to list it). */
export async function runCommand(page: Page, title: string): Promise<void> {
  const input = page.locator('.quick-input-widget input');
  for (const open of [() => page.keyboard.press('F1'), () => page.keyboard.press('Control+Shift+P'), () => page.keyboard.press('F1')]) {
    await page.keyboard.press('Escape');
    await open().catch(() => undefined);
    const filled = await input
      .waitFor({ state: 'visible', timeout: 5_000 })
      .then(() => input.fill(`>${title}`, { timeout: 5_000 }))
      .then(() => true, () => false);
    const listed = filled && (await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().waitFor({ timeout: 20_000 }).then(() => true, () => false));
    if (listed) {
      await page.keyboard.press('Enter');
      return;
    }
    await page.locator('.part.editor').first().click({ position: { x: 5, y: 5 } }).catch(() => undefined);
  }
  throw new Error(`Herald e2e: the command palette did not list "${title}"`);
}

/** Waits until a driver command's output file exists and returns it parsed. */
export async function waitForFile<T>(page: Page, file: string, timeoutMs: number): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    // A consent dialog for language-model access, if this VS Code asks: allow it.
    const allow = page.locator('.monaco-dialog-box .monaco-button', { hasText: /^Allow/ });
    if (await allow.count().catch(() => 0)) await allow.first().click().catch(() => undefined);
    if (fs.existsSync(file)) {
      try {
        return JSON.parse(fs.readFileSync(file, 'utf8')) as T;
      } catch {
        // Caught half-written: read it again.
      }
    }
    await page.waitForTimeout(300);
  }
  return undefined;
}

/** The webview frame that shows `selector`. */
export async function findFrame(page: Page, selector: string, timeoutMs: number): Promise<Frame> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    for (const frame of page.frames()) if ((await frame.locator(selector).count().catch(() => 0)) > 0) return frame;
    await page.waitForTimeout(500);
  }
  throw new Error(`no webview shows ${selector} after ${timeoutMs} ms`);
}

/** A chat answer as the user saw it arrive. */
export interface ChatAnswer {
  readonly text: string;
  /** When the response first showed what `seen` matches (ms since the epoch). */
  readonly seenAt: number | undefined;
  /** When it was complete: `until` matched, or the text stopped changing. */
  readonly doneAt: number;
  /** How many times the chat list was made to lay its rows out again because the answer did not finish rendering (see {@link chat}). */
  readonly nudges: number;
}

/**
 * How long after a reply first shows it may go without its last words before the chat list is
 * made to render it again; then again at twice this, up to {@link MAX_NUDGES} times.
 */
const STALLED_MS = 10_000;
const MAX_NUDGES = 5;

/**
 * Types a message into the chat view and sends it, as a user does; returns the response once
 * `until` matches its text (the last thing the participant writes), or, without `until`, once the
 * text stops changing; whatever was there when the time runs out otherwise. `seen` marks when the
 * answer itself first showed (the response's header shows at once).
 */
export async function chat(page: Page, message: string, timeoutMs = 60_000, until?: RegExp, seen?: RegExp): Promise<ChatAnswer> {
  const responses = page.locator('.interactive-item-container.interactive-response');
  // The chat's list is virtual (items scrolled away leave the page): a new response is one more, or a last one that changed.
  const before = await responses.count();
  const lastBefore = before > 0 ? ((await responses.last().innerText().catch(() => '')) ?? '').trim() : '';
  const input = page.locator('.interactive-input-editor .native-edit-context, .interactive-input-editor textarea:not([readonly])').first();
  await input.waitFor({ state: 'visible', timeout: 20_000 });
  await input.focus();
  await page.keyboard.press('Control+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type(message, { delay: 5 });
  // The participant's completion list may be open after "@herald": close it so Enter sends.
  await page.waitForTimeout(300);
  await page.keyboard.press('Escape');
  await input.focus();
  await page.keyboard.press('End');
  await page.keyboard.press('Enter');
  const deadline = Date.now() + timeoutMs;
  let last = '';
  let seenAt: number | undefined;
  let stableSince = Date.now();
  let nudges = 0;
  let nextNudgeAt: number | undefined;
  while (Date.now() < deadline) {
    await page.waitForTimeout(200);
    const text = ((await responses.last().innerText().catch(() => '')) ?? '').trim();
    if ((await responses.count()) <= before && text === lastBefore) continue;
    if (seen?.test(text) && seenAt === undefined) seenAt = Date.now();
    if (until?.test(text)) return { text, seenAt, doneAt: Date.now(), nudges };
    if (text.length > 0) nextNudgeAt ??= Date.now() + STALLED_MS;
    if (text !== last) {
      last = text;
      stableSince = Date.now();
    } else if (!until && text.length > 0 && Date.now() - stableSince > 2_000) {
      return { text, seenAt, doneAt: stableSince, nudges };
    }
    // VS Code shows a streamed answer word by word. In this headless browser that rendering was
    // seen to stop for minutes after "Reload Window" (at the answer's first word, or at the
    // participant's progress line), though the endpoint had answered; a new layout makes the list
    // render the row again, whole. Timed from the reply's first text, not from its last change:
    // the stall seen on 6 December (stopped at the participant's progress line) was never laid out
    // again under the old rule, so its text cannot have stood still for 10 s.
    if (until && nextNudgeAt !== undefined && Date.now() >= nextNudgeAt && nudges < MAX_NUDGES) {
      nudges++;
      nextNudgeAt = Date.now() + 2 * STALLED_MS;
      await relayout(page, responses.last());
    }
  }
  return { text: last, seenAt, doneAt: Date.now(), nudges };
}

/** Makes the workbench lay out again: the page brought to the front, the window one pixel shorter and back, the row scrolled into view. */
async function relayout(page: Page, row: Locator): Promise<void> {
  // A page the browser takes for hidden gets no animation frames, and the chat reveals a streamed answer frame by frame.
  await page.bringToFront().catch(() => undefined);
  const size = page.viewportSize();
  if (size) {
    await page.setViewportSize({ width: size.width, height: size.height - 1 });
    await page.waitForTimeout(300);
    await page.setViewportSize(size);
  }
  await row.scrollIntoViewIfNeeded({ timeout: 2_000 }).catch(() => undefined);
}

/**
 * The lines of Herald's own log (every window's, oldest window first) that match `pattern`: what
 * a check puts in its failure detail, since CI shows the checks' lines and not the artifacts.
 */
export function heraldLogLines(userData: string, pattern: RegExp): string[] {
  return logFiles(path.join(userData, 'logs'))
    .filter((file) => /Herald\.log$/i.test(file))
    .sort()
    .flatMap((file) => fs.readFileSync(file, 'utf8').split('\n').filter((line) => pattern.test(line)));
}

/** The extension host's logs and Herald's output channel under a user-data logs folder. */
function logFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (current: string): void => {
    for (const entry of fs.existsSync(current) ? fs.readdirSync(current, { withFileTypes: true }) : []) {
      const full = path.join(current, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/^(exthost|remoteexthost)\.log$|Herald\.log$/i.test(entry.name)) found.push(full);
    }
  };
  walk(folder);
  return found;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

async function waitForHttp(url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // Not up yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

async function stopServer(server: ChildProcess): Promise<void> {
  if (!server.pid) return;
  const exited = new Promise<void>((resolve) => {
    if (server.exitCode !== null || server.signalCode !== null) resolve();
    else server.once('exit', () => resolve());
  });
  try {
    process.kill(-server.pid, 'SIGTERM');
  } catch {
    return;
  }
  await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  await new Promise((resolve) => setTimeout(resolve, 500));
}
