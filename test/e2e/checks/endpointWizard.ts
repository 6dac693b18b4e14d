/**
 * Herald's endpoint wizard ("Herald: Manage Endpoints" → "Add an endpoint…"), answered step by
 * step as a user does: name, API, URL, model (picked from the endpoint's list when it shows
 * one), no key. The caller opens it (the command, or the first-run notice's button).
 */
import * as fs from 'node:fs';
import type { Page } from 'playwright-core';

export interface WizardAnswers {
  readonly name: string;
  readonly url: string;
  readonly model: string;
  /** The user's settings.json, where the endpoint must land. */
  readonly settingsFile: string;
}

/** Answers the open wizard; true once settings.json holds the endpoint by that name and URL. */
export async function answerEndpointWizard(page: Page, answers: WizardAnswers): Promise<boolean> {
  const widget = page.locator('.quick-input-widget');
  const input = widget.locator('input');
  const row = (text: string | RegExp) => widget.locator('.quick-input-list .monaco-list-row', { hasText: text }).first();
  const deadline = Date.now() + 60_000;
  let modelAnswered = false;
  while (Date.now() < deadline) {
    if (!(await widget.isVisible().catch(() => false))) {
      if (modelAnswered) break;
      await page.waitForTimeout(300);
      continue;
    }
    const title = ((await widget.locator('.quick-input-title').innerText().catch(() => '')) ?? '').trim();
    const rows = await widget.locator('.quick-input-list .monaco-list-row').allInnerTexts().catch(() => [] as string[]);
    const answer = (value: string): Promise<void> => input.fill(value).then(() => page.keyboard.press('Enter'));
    if (/Manage Endpoints/.test(title) && rows.some((text) => text.includes('Add an endpoint'))) await row('Add an endpoint').click();
    else if (/endpoint name/i.test(title)) await answer(answers.name);
    else if (/API of the endpoint/i.test(title)) await row(/OpenAI/).click();
    else if (/base URL/i.test(title)) await answer(answers.url);
    else if (/model/i.test(title)) {
      if (rows.some((text) => text.includes(answers.model))) await row(answers.model).click();
      else await answer(answers.model);
      modelAnswered = true;
    } else if (/API key/i.test(title)) await answer('');
    else {
      await page.waitForTimeout(300);
      continue;
    }
    await page.waitForTimeout(700);
  }
  const saved = (): boolean => {
    const settings = JSON.parse(fs.readFileSync(answers.settingsFile, 'utf8')) as { 'herald.endpoints'?: { name: string; url: string }[] };
    return (settings['herald.endpoints'] ?? []).some((endpoint) => endpoint.name === answers.name && endpoint.url === answers.url);
  };
  const savedBy = Date.now() + 20_000;
  while (!saved() && Date.now() < savedBy) await page.waitForTimeout(500);
  return saved();
}
