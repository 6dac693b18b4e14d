/**
 * Issues 27 and 28, the points the other walks leave out, in a VS Code of their own (a stand-in
 * for Copilot as the chat's default model, the fake endpoint "fake", an endpoint "hang" that
 * takes the connection and never answers, the sample library in `.herald/`):
 *
 * - 28.2 Retry reaches the model: the same request sent twice through "Herald · fake" reaches
 *   the endpoint twice, and so does an agent step whose answer is a tool call.
 * - 27.4 `/context` finds what the library's own search finds ("Refund policy" for a refund
 *   larger than the remaining balance).
 * - 27.3 "Test the connection" of an endpoint that never answers says it did not answer within
 *   15 s, and what to check.
 * - 28.7 an endpoint added through "Manage Endpoints" is in the chat's model picker at once, and
 *   28.5 once picked it is still the chat's model after "Developer: Reload Window", and the next
 *   question goes through it (VS Code falls back to its default model on a reload; Herald
 *   chooses its model again, src/vscode/chat/chosenChatModel.ts).
 */
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { AGENT_TOOL, FAKE_MODEL, startFakeServer, type FakeServer } from '../fakeOpenAiServer';
import { chat, heraldLogLines, runCommand, startSession, waitForFile, type Session, type WalkContext } from './session';
import { answerEndpointWizard } from './endpointWizard';

const LIBRARY = path.join(__dirname, '..', 'fixtures', 'sample-library');
/** The endpoint added through the wizard in this walk. */
const ADDED = 'added';
/** The last line @herald writes after an answer: the response is complete once it shows. */
const FOOTNOTE = /Answered without a knowledge library|From the library|Nothing in the library|No reference page matches|no rules that apply/;

/** A server that accepts every connection and never answers: the endpoint that hangs. */
interface HangingServer {
  readonly url: string;
  connections(): number;
  close(): Promise<void>;
}

async function startHangingServer(): Promise<HangingServer> {
  const sockets = new Set<net.Socket>();
  let accepted = 0;
  const server = net.createServer((socket) => {
    accepted++;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => undefined);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    connections: () => accepted,
    close: () => {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** The sample library as workspace files under `.herald/`. */
export function libraryFiles(): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (folder: string): void => {
    for (const entry of fs.readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) walk(full);
      else files[path.join('.herald', path.relative(LIBRARY, full))] = fs.readFileSync(full, 'utf8');
    }
  };
  walk(LIBRARY);
  return files;
}

export async function runModelPathWalk(context: WalkContext): Promise<void> {
  const fake = await startFakeServer();
  const hang = await startHangingServer();
  let session: Session | undefined;
  try {
    session = await startSession(context, {
      name: 'model-path',
      settings: {
        'heraldE2E.languageModels': 'default',
        'herald.copilotHostedModels': 'show',
        'herald.endpoints': [
          { name: 'fake', kind: 'openai', url: fake.url, model: FAKE_MODEL },
          { name: 'hang', kind: 'openai', url: hang.url, model: FAKE_MODEL },
        ],
      },
      files: libraryFiles(),
    });
    const parts: [string, (session: Session) => Promise<void>][] = [
      ['Retry reaches the model', (current) => checkRetry(context, current, fake)],
      ['/context finds the rule', (current) => checkContext(context, current)],
      ['a timeout that explains', (current) => checkTimeout(context, current, hang)],
      ['the picker and the reload', (current) => checkPickerAndReload(context, current, fake)],
    ];
    for (const [name, part] of parts) {
      try {
        await part(session);
      } catch (error) {
        await session.screenshot(`failed-${name.replace(/[^a-z]+/gi, '-')}`);
        context.check(`the model-path walk: ${name} completes`, false, error instanceof Error ? error.message : String(error));
      }
    }
  } catch (error) {
    context.check('the model-path walk starts', false, error instanceof Error ? error.message : String(error));
  } finally {
    await session?.close();
    await hang.close();
    await fake.close();
  }
}

export interface SendResult {
  ok: boolean;
  text?: string;
  error?: string;
  toolCalls?: { name: string; input: unknown }[];
}

/** Sends `.e2e/send.json` through the driver (vscode.lm, as an agent does) and returns what came back. */
export async function sendThroughDriver(session: Session, spec: { modelId: string; messages: { role: string; content: string }[]; tools?: unknown[] }, output: string): Promise<SendResult | undefined> {
  const file = path.join(session.workspace, '.e2e', output);
  fs.rmSync(file, { force: true });
  fs.writeFileSync(path.join(session.workspace, '.e2e', 'send.json'), JSON.stringify({ ...spec, output }));
  await runCommand(session.page, 'Herald E2E: Send The Request In send.json');
  return waitForFile<SendResult>(session.page, file, 60_000);
}

/** 28.2: the same request twice, each time to the endpoint; the same agent step twice, each time a fresh tool call from the model. */
async function checkRetry(context: WalkContext, session: Session, fake: FakeServer): Promise<void> {
  const question = { modelId: 'endpoint:fake', messages: [{ role: 'user', content: 'Why does the refund test fail with RefundError? Answer in one line.' }] };
  const answers: string[] = [];
  const reached: number[] = [];
  for (const attempt of [1, 2]) {
    const before = fake.requests.length;
    const result = await sendThroughDriver(session, question, `retry-${attempt}.json`);
    reached.push(fake.requests.length - before);
    answers.push(result?.ok ? (result.text ?? '') : `error: ${result?.error ?? 'no answer'}`);
  }
  context.check(
    'Retry: the same request sent twice through "Herald · fake" reaches the endpoint both times (no cached answer)',
    reached.every((count) => count === 1) && answers.every((text) => /E2E answer/.test(text)),
    `endpoint requests per send: ${reached.join(', ')}; answers: ${answers.map((text) => `"${text.trim().slice(0, 60)}"`).join(', ')}`,
  );

  const tool = { name: AGENT_TOOL, description: 'Runs the test suite and returns its output.', inputSchema: { type: 'object', properties: { command: { type: 'string' } }, required: ['command'] } };
  const step = { modelId: 'endpoint:fake', messages: [{ role: 'user', content: 'Run the tests and tell me which one fails.' }], tools: [tool] };
  const calls: string[] = [];
  const stepReached: number[] = [];
  for (const attempt of [1, 2]) {
    const before = fake.requests.length;
    const result = await sendThroughDriver(session, step, `agent-step-${attempt}.json`);
    stepReached.push(fake.requests.length - before);
    calls.push(result?.ok ? (result.toolCalls ?? []).map((call) => call.name).join('+') || 'no tool call' : `error: ${result?.error ?? 'no answer'}`);
  }
  const offered = fake.requests.slice(-2).every((request) => ((request.tools as { function: { name: string } }[] | undefined) ?? []).some((entry) => entry.function.name === AGENT_TOOL));
  context.check(
    'Retry: the same agent step whose answer is a tool call reaches the endpoint both times, and the caller gets the model\'s tool call each time',
    stepReached.every((count) => count === 1) && calls.every((name) => name === AGENT_TOOL) && offered,
    `endpoint requests per send: ${stepReached.join(', ')}; tool calls returned: ${calls.join(', ')}; ${AGENT_TOOL} ${offered ? 'offered' : 'NOT offered'} to the endpoint`,
  );
}

/** 27.4: a task naming a rule's topic brings the rule, and the reply does not say nothing matched. */
async function checkContext(context: WalkContext, session: Session): Promise<void> {
  const { page } = session;
  await runCommand(page, 'Chat: Open Chat');
  const reply = await chat(page, '@herald /context refund larger than the remaining balance', 120_000, /\d+ of [\d,]+ tokens|No reference page matches|Nothing in the library/);
  await page.waitForTimeout(2_000);
  const text = ((await page.locator('.interactive-item-container.interactive-response').last().innerText().catch(() => reply.text)) ?? reply.text).replace(/\s+/g, ' ');
  await session.screenshot('01-context');
  context.check(
    '/context "refund larger than the remaining balance" brings "Refund policy" and does not say nothing matches',
    /Refund policy/.test(text) && /\d+ pages?, [\d,]+ of [\d,]+ tokens/.test(text) && !/Nothing in the library|No reference page matches/.test(text),
    text.slice(0, 260),
  );
}

/** 27.3: "Test the connection" of an endpoint that takes the connection and never answers. */
async function checkTimeout(context: WalkContext, session: Session, hang: HangingServer): Promise<void> {
  const { page } = session;
  const choice = page.locator('.quick-input-list .monaco-list-row', { hasText: 'Test the connection of "hang"' }).first();
  let picked = false;
  for (let attempt = 0; attempt < 3 && !picked; attempt++) {
    await runCommand(page, 'Herald: Manage Endpoints');
    picked = await choice
      .waitFor({ timeout: 10_000 })
      .then(() => choice.click({ timeout: 5_000 }))
      .then(() => true, () => false);
  }
  if (!picked) throw new Error('Manage Endpoints did not offer "Test the connection of "hang""');
  const startedAt = Date.now();
  const toast = page.locator('.notification-toast', { hasText: /endpoint "hang"/ }).filter({ hasNotText: /testing/ }).first();
  const shown = await toast.waitFor({ timeout: 60_000 }).then(() => true, () => false);
  const waited = Date.now() - startedAt;
  const text = shown ? ((await toast.innerText().catch(() => '')) ?? '').replace(/\s+/g, ' ') : '';
  await session.screenshot('02-timeout');
  context.check(
    '"Test the connection" of an endpoint that never answers says it did not answer within 15 s, and what to check',
    hang.connections() > 0 && /did not answer within 15 s/.test(text) && /check that the server has finished starting/.test(text) && !/This operation was aborted/.test(text) && waited >= 10_000,
    `${hang.connections()} connection(s) taken; after ${(waited / 1000).toFixed(1)} s: "${text.slice(0, 300)}"`,
  );
  await page.keyboard.press('Escape');
  await page.locator('.notification-toast .codicon-notifications-clear, .notification-toast .codicon-close').first().click({ timeout: 2_000 }).catch(() => undefined);
}

/** The chat's model picker label. */
async function pickerLabel(page: Page): Promise<string> {
  return (await page.locator('.chat-input-toolbar .chat-modelPicker-item .chat-model-label').allInnerTexts().catch(() => [] as string[])).join(' | ');
}

async function waitForPickerLabel(page: Page, pattern: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let label = await pickerLabel(page);
  while (!pattern.test(label) && Date.now() < deadline) {
    await page.waitForTimeout(500);
    label = await pickerLabel(page);
  }
  return label;
}

/** Opens the chat's model picker and returns the entries it lists (left open). */
async function openPicker(page: Page): Promise<string[]> {
  // The chat's mode picker ("Agent", "Ask", "Edit") is the toolbar's other picker item.
  const items = page.locator('.chat-input-toolbar .chat-modelPicker-item');
  const labels = await items.allInnerTexts();
  const index = labels.findIndex((label) => !/^\s*(Agent|Ask|Edit|Plan)\b/.test(label));
  if (index < 0) throw new Error(`no model picker among the chat's toolbar items: ${labels.join(' | ')}`);
  await items.nth(index).click({ timeout: 10_000 });
  const rows = page.locator('.action-widget .monaco-list-row');
  await rows.first().waitFor({ timeout: 10_000 });
  await page.waitForTimeout(500);
  return (await rows.allInnerTexts()).map((row) => row.replace(/\s+/g, ' ').trim());
}

/** 28.7 and 28.5: the added endpoint is in the picker without Manage Models; picked, it survives a reload and answers the next question. */
async function checkPickerAndReload(context: WalkContext, session: Session, fake: FakeServer): Promise<void> {
  const { page } = session;
  await runCommand(page, 'Herald: Manage Endpoints');
  const added = await answerEndpointWizard(page, { name: ADDED, url: fake.url, model: FAKE_MODEL, settingsFile: path.join(session.userData, 'User', 'settings.json') });
  if (!added) throw new Error(`the endpoint wizard did not save "${ADDED}"`);
  // The "ready" notice; the picker is checked without taking its "Enable Herald Models" button.
  await page.locator('.notification-toast', { hasText: `Herald · ${ADDED}` }).first().waitFor({ timeout: 30_000 }).catch(() => undefined);
  await page.keyboard.press('Escape');
  await runCommand(page, 'Chat: Open Chat');
  const before = await waitForPickerLabel(page, /\S/, 30_000);
  let entries: string[] = [];
  const listedBy = Date.now() + 30_000;
  while (Date.now() < listedBy) {
    entries = await openPicker(page).catch(() => [] as string[]);
    if (entries.some((entry) => entry.includes(`Herald · ${ADDED}`))) break;
    await page.keyboard.press('Escape');
    await page.waitForTimeout(1_000);
  }
  await session.screenshot('03-picker');
  const listed = entries.some((entry) => entry.includes(`Herald · ${ADDED}`));
  context.check(
    `a newly added endpoint's "Herald · ${ADDED}" is in the chat's model picker without a visit to Manage Models`,
    listed,
    `picker was "${before}"; it lists: ${entries.join(' | ').slice(0, 300)}`,
  );
  if (!listed) {
    await page.keyboard.press('Escape');
    return;
  }
  // The picker's rows take the keyboard (a pointer block over the workbench takes clicks): down to the entry, Enter.
  const focused = (await page.locator('.action-widget .monaco-list-row').evaluateAll((rows) => rows.map((row) => row.classList.contains('focused')))).indexOf(true);
  const target = entries.findIndex((entry) => entry.includes(`Herald · ${ADDED}`));
  for (let step = Math.max(focused, 0); step < target; step++) await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  const chosen = await waitForPickerLabel(page, new RegExp(`Herald · ${ADDED}`), 10_000);
  const pickedBefore = fake.requests.length;
  const pickedReply = await chat(page, '@herald What does a refund need to check?', 150_000, FOOTNOTE, /E2E answer|stand-in answer/);
  const pickedReached = fake.requests.length - pickedBefore;
  context.check(
    `picking "Herald · ${ADDED}" makes it the chat's model: @herald answers through it`,
    new RegExp(`Herald · ${ADDED}`).test(chosen) && pickedReached >= 1 && /E2E answer/.test(pickedReply.text),
    `picker: "${chosen}"; ${pickedReached} endpoint request(s); answer "${pickedReply.text.replace(/\s+/g, ' ').slice(0, 160)}"`,
  );

  // 28.5 after a reload: VS Code restores the picker from its cache, then falls back to its default
  // model while Herald's models are being listed; Herald chooses its model again once listed.
  await runCommand(page, 'Developer: Reload Window');
  await page.waitForTimeout(3_000);
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  await page.locator('.statusbar-item', { hasText: /Herald|saved|\d more/ }).first().waitFor({ timeout: 90_000 });
  await runCommand(page, 'Chat: Open Chat');
  // Settled: the fallback comes a few seconds after start-up, Herald's choice after its listing.
  await page.waitForTimeout(8_000);
  const afterReload = await waitForPickerLabel(page, new RegExp(`Herald · ${ADDED}`), 30_000);
  // Which entry the picker itself marks as chosen (its check mark), for whoever reads a failure.
  const marked = await openPicker(page)
    .then(() => page.locator('.action-widget .monaco-list-row').evaluateAll((rows) => rows.filter((row) => row.querySelector('.codicon-check:not(.hidden)') !== null && getComputedStyle(row.querySelector('.codicon-check')!).visibility !== 'hidden').map((row) => (row as HTMLElement).innerText.split('\n')[0] ?? '')))
    .catch(() => [] as string[]);
  await page.keyboard.press('Escape');
  await session.screenshot('04-after-reload');
  const requestsBefore = fake.requests.length;
  const reply = await chat(page, '@herald What does a refund need to check?', 150_000, FOOTNOTE, /E2E answer|stand-in answer/);
  await page.waitForTimeout(1_500);
  const reached = fake.requests.length - requestsBefore;
  await session.screenshot('05-after-reload-answer');
  const passed = new RegExp(`Herald · ${ADDED}`).test(afterReload) && reached >= 1 && /E2E answer/.test(reply.text) && !/stand-in answer/.test(reply.text);
  // A stalled answer: whether Herald's side finished it (the participant logs when it is done) or not, and what it warned of.
  const logged = passed ? [] : heraldLogLines(session.userData, /participant-answered|\[(?:warning|error)\]/i).slice(-4);
  context.check(
    `after "Developer: Reload Window" the picker still shows "Herald · ${ADDED}", and the next @herald question goes through it to the endpoint`,
    passed,
    `picker after reload: "${afterReload}" (checked in its list: ${marked.join(', ') || 'none'}); ${reached} endpoint request(s); answer "${reply.text.replace(/\s+/g, ' ').slice(0, 160)}"${reply.nudges > 0 ? ` (the answer had not finished rendering 10 s after it began; the chat list was laid out again ${reply.nudges} time(s))` : ''}${logged.length > 0 ? `; Herald's log: ${logged.map((line) => line.slice(0, 300)).join(' | ')}` : ''}`,
  );
}
