/**
 * Issue 27 (the user's path) and issue 28's @herald points, in the real VS Code, each walk from
 * a fresh install:
 *
 * - **Without Copilot** (no default chat model, no other model): the first-run notice offers an
 *   endpoint and the agent connection; the user adds the fake endpoint through "Manage
 *   Endpoints"; the chat's model picker then shows "Herald · fake" and `@herald` answers through
 *   it, with no library (27.1, 27.2), the attached file sent (28.3), one endpoint request per
 *   question (28.4), and `/context` agreeing with its references (28.6). "Connect Agent
 *   Extensions" then points the stand-ins for Continue and Roo Code at the gateway; after a
 *   reload both answer through it, and Roo Code's import setting is gone (27.2).
 * - **With a default chat model** (the driver's Copilot stand-in marked default): Herald leaves
 *   the default alone and `@herald` answers through it.
 *
 * Each walk measures the time from start (code-server launched on a new user-data folder with the
 * VSIX installed) and from the workbench being ready to the first answer through Herald.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Page } from 'playwright-core';
import { FAKE_MODEL, startFakeServer, type FakeServer } from '../fakeOpenAiServer';
import { chat, freePort, runCommand, startSession, waitForFile, type Session, type WalkContext } from './session';
import { answerEndpointWizard } from './endpointWizard';

const FIXTURES = path.join(__dirname, '..', 'fixtures');
/** One line of payments.py no other text holds: the endpoint must receive it when the file is attached. */
const PAYMENTS_MARK = 'REFUND_GUARD_7f3e91';
const PAYMENTS = `"""Payments: refunds against an order's remaining balance."""


class RefundError(Exception):
    pass


def refund(order, amount):
    # ${PAYMENTS_MARK}: a refund never exceeds what is left of the order.
    remaining = order.total - order.refunded
    if amount > remaining:
        raise RefundError(f"refund {amount} exceeds remaining {remaining}")
    order.refunded += amount
    return order
`;
/** The last line @herald writes after an answer (or a /context reply): the response is complete once it shows. */
const FOOTNOTE = /Answered without a knowledge library|From the library|Nothing in the library|No reference page matches|no rules that apply/;
/** A minute: the bound from a fresh install to a first answer. */
const FIRST_ANSWER_MS = 60_000;

export interface WalkTimings {
  /** Walk name → { from start, from ready } in ms. */
  readonly [walk: string]: { readonly fromStartMs: number; readonly fromReadyMs: number };
}

/** Runs both walks; returns how long each took to its first answer through Herald. */
export async function runEditorWalks(context: WalkContext): Promise<WalkTimings> {
  const timings: Record<string, { fromStartMs: number; fromReadyMs: number }> = {};
  const fake = await startFakeServer();
  try {
    await walkWithoutCopilot(context, fake, (timing) => (timings['without Copilot'] = timing));
  } catch (error) {
    context.check('the walk without Copilot completes', false, error instanceof Error ? error.message : String(error));
  }
  try {
    timings['with a default chat model'] = await walkWithDefaultModel(context, fake);
  } catch (error) {
    context.check('the walk with a default chat model completes', false, error instanceof Error ? error.message : String(error));
  } finally {
    await fake.close();
  }
  fs.writeFileSync(path.join(context.artifacts, 'walk-timings.json'), JSON.stringify(timings, null, 2));
  return timings;
}

async function walkWithoutCopilot(context: WalkContext, fake: FakeServer, measured: (timing: { fromStartMs: number; fromReadyMs: number }) => void): Promise<void> {
  const gatewayPort = await freePort();
  const session = await startSession(context, {
    name: 'no-copilot',
    settings: { 'heraldE2E.languageModels': 'none', 'herald.gateway.port': gatewayPort },
    extensions: [{ folder: path.join(FIXTURES, 'fake-continue'), modules: ['yaml'] }, { folder: path.join(FIXTURES, 'fake-roo-code') }],
    environment: { CONTINUE_GLOBAL_DIR: '' },
    files: { 'src/payments.py': PAYMENTS, '.e2e/attach.json': JSON.stringify({ file: 'src/payments.py', query: '@herald Why would a refund of 50 raise RefundError here?' }) },
  });
  // Continue's folder: inside the walk's own home, as Continue finds it without CONTINUE_GLOBAL_DIR.
  const continueFolder = path.join(session.home, '.continue');
  const { page } = session;
  try {
    // The first-run notice, with nothing in the chat that can answer.
    const toast = page.locator('.notification-toast', { hasText: 'no chat model yet' });
    const shown = await toast.first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
    const buttons = shown ? await toast.first().locator('.monaco-button').allInnerTexts() : [];
    await session.screenshot('01-first-run');
    context.check('without any chat model, the first-run notice says so and offers an endpoint and Connect Agents', shown && buttons.some((text) => /Add an Endpoint/.test(text)) && buttons.some((text) => /Connect Agents/.test(text)), buttons.join(' | '));
    if (shown) await toast.first().locator('.monaco-button', { hasText: 'Add an Endpoint' }).click();
    else await runCommand(page, 'Herald: Manage Endpoints');
    const added = await answerEndpointWizard(page, { name: 'fake', url: fake.url, model: FAKE_MODEL, settingsFile: path.join(session.userData, 'User', 'settings.json') });
    await session.screenshot('01-endpoint-added');
    context.check('the endpoint wizard adds the endpoint from the first-run notice', added, '');

    // The chat now has a model: Herald's endpoint, made the default.
    await runCommand(page, 'Chat: Open Chat');
    const picker = await waitForPickerLabel(page, /Herald · fake/, 30_000);
    const pickerAt = Date.now();
    await session.screenshot('02-chat-model');
    context.check('without Copilot, the chat\'s model picker shows "Herald · fake" (Herald made it the default)', /Herald · fake/.test(picker), `picker: "${picker}"`);

    // 27.1: @herald answers without a library; 28.4: one endpoint request for one question.
    const requestsBefore = fake.requests.length;
    const askedAt = Date.now();
    const arrival = requestArrival(fake, requestsBefore + 1, 150_000);
    const reply = await chat(page, '@herald What does a refund need to check?', 150_000, FOOTNOTE, /E2E answer|stand-in answer/);
    const answer = reply.text;
    const answeredAt = reply.seenAt ?? reply.doneAt;
    const reachedAt = await arrival;
    context.log(`without Copilot: ready → picker ${((pickerAt - session.readyAt) / 1000).toFixed(1)} s; question sent → endpoint request ${reachedAt ? ((reachedAt - askedAt) / 1000).toFixed(1) : '?'} s → answer shown ${reply.seenAt ? ((reply.seenAt - askedAt) / 1000).toFixed(1) : '?'} s → complete ${((reply.doneAt - askedAt) / 1000).toFixed(1)} s`);
    await session.screenshot('03-first-answer');
    context.check('@herald answers through the endpoint with no library, the library\'s absence a hint after the answer', /E2E answer/.test(answer) && /Answered without a knowledge library/.test(answer) && !/No knowledge library is available/.test(answer), answer.replace(/\s+/g, ' ').slice(0, 240));
    await page.waitForTimeout(3_000);
    const sent = fake.requests.slice(requestsBefore);
    context.check('one question, one endpoint request: no quality-check or other second model call', sent.length === 1, `${sent.length} endpoint requests for the question`);
    const timing = { fromStartMs: answeredAt - session.startedAt, fromReadyMs: answeredAt - session.readyAt };
    measured(timing);
    context.check(`without Copilot, a first answer through Herald within a minute of the workbench being ready`, timing.fromReadyMs < FIRST_ANSWER_MS, `${(timing.fromReadyMs / 1000).toFixed(1)} s from ready (the wizard typed in), ${(timing.fromStartMs / 1000).toFixed(1)} s from launching code-server on a fresh user-data folder`);

    // 28.3: the attached file reaches the model whole, with no "left out" note.
    await checkAttachment(context, session, fake);
    // 28.6: /context agrees with the references it lists.
    await checkContextReply(context, session);
    // 27.2: the agent extensions, connected to the gateway.
    await checkConnectAgents(context, session, fake, continueFolder, gatewayPort);
  } finally {
    await session.close();
  }
}

async function walkWithDefaultModel(context: WalkContext, fake: FakeServer): Promise<{ fromStartMs: number; fromReadyMs: number }> {
  const session = await startSession(context, {
    name: 'default-model',
    settings: { 'heraldE2E.languageModels': 'default', 'herald.copilotHostedModels': 'show', 'herald.endpoints': [{ name: 'fake', kind: 'openai', url: fake.url, model: FAKE_MODEL }] },
  });
  const { page } = session;
  try {
    const toast = page.locator('.notification-toast', { hasText: 'Herald is ready' });
    const shown = await toast.first().waitFor({ timeout: 30_000 }).then(() => true, () => false);
    context.check('with a chat model, the first-run notice leads to Manage Models', shown && !(await toast.first().innerText()).includes('no chat model'), '');
    await page.keyboard.press('Escape');
    await runCommand(page, 'Chat: Open Chat');
    const picker = await waitForPickerLabel(page, /Copilot Stand-in|Herald/, 30_000);
    context.check('with a default chat model, Herald leaves it the default (the picker shows the stand-in)', /Copilot Stand-in/.test(picker) && !/Herald/.test(picker), `picker: "${picker}"`);
    const askedAt = Date.now();
    const reply = await chat(page, '@herald What does a refund need to check?', 150_000, FOOTNOTE, /E2E answer|stand-in answer/);
    const answer = reply.text;
    const answeredAt = reply.seenAt ?? reply.doneAt;
    context.log(`with a default model: question sent → answer shown ${reply.seenAt ? ((reply.seenAt - askedAt) / 1000).toFixed(1) : '?'} s → complete ${((reply.doneAt - askedAt) / 1000).toFixed(1)} s`);
    await session.screenshot('01-first-answer');
    context.check('with a default chat model, @herald answers through it', /stand-in answer/.test(answer), answer.replace(/\s+/g, ' ').slice(0, 200));
    const timing = { fromStartMs: answeredAt - session.startedAt, fromReadyMs: answeredAt - session.readyAt };
    context.check('with a default chat model, a first answer through Herald within a minute of the workbench being ready', timing.fromReadyMs < FIRST_ANSWER_MS, `${(timing.fromReadyMs / 1000).toFixed(1)} s from ready, ${(timing.fromStartMs / 1000).toFixed(1)} s from launching code-server`);
    return timing;
  } finally {
    await session.close();
  }
}

/** When the fake endpoint's request count reaches `count` (ms since the epoch), or undefined after the time. */
async function requestArrival(fake: FakeServer, count: number, timeoutMs: number): Promise<number | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (fake.requests.length >= count) return Date.now();
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return undefined;
}

/** The chat's model picker label, once it matches (the last label read otherwise). */
async function waitForPickerLabel(page: Page, pattern: RegExp, timeoutMs: number): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  let labels = '';
  while (Date.now() < deadline) {
    labels = (await page.locator('.chat-input-toolbar .chat-modelPicker-item .chat-model-label').allInnerTexts().catch(() => [] as string[])).join(' | ');
    if (pattern.test(labels)) return labels;
    await page.waitForTimeout(500);
  }
  return labels;
}

async function checkAttachment(context: WalkContext, session: Session, fake: FakeServer): Promise<void> {
  const before = fake.requests.length;
  await runCommand(session.page, 'Herald E2E: Ask Herald With An Attached File');
  const result = await waitForFile<{ ok: boolean; error?: string }>(session.page, path.join(session.workspace, '.e2e', 'attached.json'), 60_000);
  await session.page.waitForTimeout(1_500);
  await session.screenshot('04-attachment');
  const response = ((await session.page.locator('.interactive-item-container.interactive-response').last().innerText().catch(() => '')) ?? '').replace(/\s+/g, ' ');
  const sent = fake.requests.slice(before).map((request) => JSON.stringify(request));
  context.check(
    '@herald sends the attached src/payments.py to the model, whatever its relevance, and says nothing was left out',
    result?.ok === true && sent.length === 1 && sent[0]!.includes(PAYMENTS_MARK) && sent[0]!.includes('src/payments.py') && !/left out/.test(response),
    result?.ok ? `${sent.length} endpoint request(s); payments.py ${sent.some((text) => text.includes(PAYMENTS_MARK)) ? 'in it' : 'NOT in it'}; response "${response.slice(0, 160)}"` : result?.error ?? 'no result',
  );
}

async function checkContextReply(context: WalkContext, session: Session): Promise<void> {
  fs.cpSync(path.join(FIXTURES, 'sample-library'), path.join(session.workspace, '.herald'), { recursive: true });
  await runCommand(session.page, 'Herald: Reindex Library');
  await session.page.locator('.notification-toast', { hasText: 'library reindexed' }).first().waitFor({ timeout: 20_000 }).catch(() => undefined);
  const reply = await chat(session.page, '@herald /context kubernetes cluster autoscaling', 150_000, /check with the user|no rules that apply/);
  await session.screenshot('05-context');
  const text = reply.text.replace(/\s+/g, ' ');
  const used = /Used (\d+) references?/.exec(text)?.[1];
  context.check(
    '/context never says "Nothing in the library matches" above the references it used: with only the rules, it says so',
    !/Nothing in the library matches this task\.(?! and it has no rules)/.test(text) && /No reference page matches this task/.test(text) && /Refund policy/.test(text) && (used === undefined || Number(used) >= 1),
    text.slice(0, 260),
  );
}

async function checkConnectAgents(context: WalkContext, session: Session, fake: FakeServer, continueFolder: string, gatewayPort: number): Promise<void> {
  const { page } = session;
  await runCommand(page, 'Herald: Connect Agent Extensions');
  const dialog = page.locator('.monaco-dialog-box');
  const asked = await dialog.first().waitFor({ timeout: 60_000 }).then(() => true, () => false);
  const question = asked ? ((await dialog.first().innerText()) ?? '').replace(/\s+/g, ' ') : '';
  const preview = await page.locator('.editor-group-container .monaco-editor .view-lines').first().innerText().catch(() => '');
  await session.screenshot('06-connect-preview');
  context.check('Connect Agent Extensions shows what it will write and asks first', asked && /Continue, Roo Code/.test(question) && /Continue: (create|update)/.test(preview.replace(/\s+/g, ' ')) && !fs.existsSync(path.join(continueFolder, 'config.yaml')), question.slice(0, 200));
  if (!asked) return;
  await dialog.locator('.monaco-button', { hasText: 'Write' }).first().click();
  const configFile = path.join(continueFolder, 'config.yaml');
  const settings = (): Record<string, unknown> => JSON.parse(fs.readFileSync(path.join(session.userData, 'User', 'settings.json'), 'utf8')) as Record<string, unknown>;
  // The last entry written is Roo Code's setting (each setting is a write of settings.json: slow on a loaded machine).
  const deadline = Date.now() + 60_000;
  while ((!fs.existsSync(configFile) || settings()['roo-cline.autoImportSettingsPath'] === undefined) && Date.now() < deadline) await page.waitForTimeout(300);
  const config = fs.existsSync(configFile) ? fs.readFileSync(configFile, 'utf8') : '';
  const written = settings();
  context.check(
    "after Write: Continue's config.yaml has a model at the gateway, the gateway is on and sends to the endpoint, Roo Code has its import setting",
    config.includes(`apiBase: http://127.0.0.1:${gatewayPort}/v1`) && written['herald.gateway.enabled'] === true && written['herald.gateway.openaiBaseUrl'] === fake.url && typeof written['roo-cline.autoImportSettingsPath'] === 'string',
    `config.yaml ${config.length} characters; gateway ${String(written['herald.gateway.enabled'])} → ${String(written['herald.gateway.openaiBaseUrl'])}`,
  );
  // Roo Code imports when it starts: reload, as the notice offers.
  const reload = page.locator('.notification-toast .monaco-button', { hasText: 'Reload Window' }).first();
  if (await reload.waitFor({ timeout: 15_000 }).then(() => true, () => false)) await reload.click();
  else await runCommand(page, 'Developer: Reload Window');
  await page.waitForTimeout(3_000);
  await page.locator('.monaco-workbench').waitFor({ timeout: 90_000 });
  await page.locator('.statusbar-item', { hasText: /Herald|saved|\d more/ }).first().waitFor({ timeout: 90_000 });
  const imports = await waitForFile<{ count: number; current: string }>(page, path.join(session.workspace, '.e2e', 'roo-imports.json'), 30_000);
  const cleanupDeadline = Date.now() + 30_000;
  while (settings()['roo-cline.autoImportSettingsPath'] !== undefined && Date.now() < cleanupDeadline) await page.waitForTimeout(500);
  context.check(
    'Roo Code imported the Herald profile once, and Herald then removed its import setting (so a later start does not import over the key)',
    imports?.count === 1 && imports.current === 'Herald' && settings()['roo-cline.autoImportSettingsPath'] === undefined,
    `imports: ${JSON.stringify(imports)}; setting now ${JSON.stringify(settings()['roo-cline.autoImportSettingsPath'])}`,
  );
  for (const [agent, command, file] of [['Continue', 'Fake Continue: Ask Through Its Herald Model', 'continue.json'], ['Roo Code', 'Fake Roo Code: Ask Through Its Current Profile', 'roo.json']] as const) {
    const before = fake.requests.length;
    await runCommand(page, command);
    const answer = await waitForFile<{ ok: boolean; text?: string; error?: string; apiBase?: string; baseUrl?: string }>(page, path.join(session.workspace, '.e2e', file), 30_000);
    const base = answer?.apiBase ?? answer?.baseUrl ?? '';
    context.check(
      `${agent} answers through Herald's gateway in VS Code, which forwards to the endpoint`,
      answer?.ok === true && /E2E answer/.test(answer.text ?? '') && base.startsWith(`http://127.0.0.1:${gatewayPort}`) && fake.requests.length === before + 1,
      answer ? `${base} → "${(answer.text ?? answer.error ?? '').slice(0, 80)}"` : 'no answer',
    );
  }
}
