/**
 * Issue 28's first point in the real VS Code: the figures Herald shows for a turn are the bill.
 * The fake endpoint bills each request from what it received (`billedUsage`), so the test knows
 * the bill independently of Herald: "with Herald" must equal what the endpoint billed over every
 * round of the turn, and "without Herald" must be the original request sent once, as the same
 * endpoint would have billed it. Two turns: one the model answers straight away (Herald sent less,
 * so it is cheaper), and one where the model asks for an original first (two rounds, each billed).
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { billedUsage, FAKE_OUTPUT, FAKE_PRICE, NO_RETRIEVE, type ChatBody, type FakeServer, type FakeUsage } from '../fakeOpenAiServer';

type Check = (name: string, ok: boolean, detail?: string) => void;
type Message = { role: string; content: string };

/** A record of the exported report, the parts these checks read. */
export interface PricedRecord {
  rounds?: number;
  usage?: { inputTokens: number; cacheReadTokens: number; cacheWriteTokens?: number; outputTokens: number };
  cost?: { billedUsd: number; unoptimizedUsd: number };
}

/** Which of the endpoint's requests belong to each turn ([from, to) in `fake.requests`), and the conversation the caller sent. */
export interface EndpointTurns {
  readonly fake: FakeServer;
  readonly conversation: readonly Message[];
  readonly retrieve: readonly [number, number];
  readonly direct: readonly [number, number];
}

/** How far Herald's estimate of the original may be from the endpoint's own bill for it: Herald counts with its tokenizer and scales by the turn's ratio, the fake counts characters. */
const ESTIMATE_TOLERANCE = 0.3;

/** The conversation with its last user message asking for an answer without a retrieve round. */
export function directConversation(conversation: readonly Message[]): Message[] {
  const messages = conversation.map((message) => ({ ...message }));
  const last = messages[messages.length - 1]!;
  last.content = `${last.content}\n\nAnswer from what you see, without retrieving anything. (${NO_RETRIEVE})`;
  return messages;
}

/** Sends the direct turn through the driver (`heraldE2E.sendRequestDirect`) and checks it was answered in one round. */
export async function sendDirectRequest(
  workspace: string,
  fake: FakeServer,
  conversation: readonly Message[],
  driver: (command: string, file: string) => Promise<{ ok: boolean; text?: string; error?: string }>,
  check: Check,
): Promise<void> {
  const request = JSON.parse(fs.readFileSync(path.join(workspace, '.e2e', 'request.json'), 'utf8')) as { modelId: string };
  fs.writeFileSync(path.join(workspace, '.e2e', 'request-direct.json'), JSON.stringify({ modelId: request.modelId, messages: directConversation(conversation) }));
  const before = fake.requests.length;
  const response = await driver('Herald E2E: Send A Request Answered Without Retrieval', 'response-direct.json');
  check('a turn the model answers without retrieving reaches the endpoint once', response.ok && fake.requests.length === before + 1 && (response.text ?? '').includes('E2E answer'), response.error ?? `${fake.requests.length - before} endpoint requests; "${response.text?.trim()}"`);
}

/** The money of one usage at the price the test set for the fake model. */
function usd(usage: FakeUsage): number {
  const cached = usage.prompt_tokens_details.cached_tokens;
  return ((usage.prompt_tokens - cached) * FAKE_PRICE.input + cached * FAKE_PRICE.cachedInput + usage.completion_tokens * FAKE_PRICE.output) / 1_000_000;
}

function sum(usages: readonly FakeUsage[]): { prompt: number; cached: number; completion: number; usd: number } {
  return usages.reduce((total, usage) => ({ prompt: total.prompt + usage.prompt_tokens, cached: total.cached + usage.prompt_tokens_details.cached_tokens, completion: total.completion + usage.completion_tokens, usd: total.usd + usd(usage) }), { prompt: 0, cached: 0, completion: 0, usd: 0 });
}

/** The caller's request as the endpoint would have received it without Herald: its messages, no tools. */
function originalBody(messages: readonly Message[]): Pick<ChatBody, 'messages' | 'tools'> {
  return { messages: messages.map((message) => ({ role: message.role, content: message.content })) };
}

/**
 * What the endpoint would have billed without Herald for each turn's original, sent once and
 * answered once: the conversation's previous turn (up to its last answer) already in its cache,
 * as a conversation seen mid-way had it, then the retrieve turn's original, then the direct one's.
 */
function originalBills(conversation: readonly Message[]): { retrieve: FakeUsage; direct: FakeUsage } {
  const cache: string[] = [];
  const lastAnswer = conversation.map((message) => message.role).lastIndexOf('assistant');
  if (lastAnswer > 0) billedUsage(originalBody(conversation.slice(0, lastAnswer)), cache, 0);
  const retrieve = billedUsage(originalBody(conversation), cache, FAKE_OUTPUT.answer);
  const direct = billedUsage(originalBody(directConversation(conversation)), cache, FAKE_OUTPUT.answer);
  return { retrieve, direct };
}

function money(value: number): string {
  return `$${value.toFixed(5)}`;
}

/** The records of the endpoint's two priced turns (in the order sent) against what the endpoint billed. */
export function checkBilledFigures(priced: readonly PricedRecord[], turns: EndpointTurns | undefined, check: Check): void {
  if (!turns) {
    check("the export's figures for the endpoint's turns are what the endpoint billed", false, 'the turns were not sent');
    return;
  }
  const [retrieveRecord, directRecord] = priced;
  const originals = originalBills(turns.conversation);
  const turn = (name: string, record: PricedRecord | undefined, range: readonly [number, number], original: FakeUsage): { billed: number; estimate: number; originalUsd: number; billedPrompt: number } | undefined => {
    const billed = sum(turns.fake.usages.slice(range[0], range[1]));
    const rounds = range[1] - range[0];
    const usage = record?.usage;
    const sameUsage = usage !== undefined && record?.rounds === rounds && usage.inputTokens + usage.cacheReadTokens + (usage.cacheWriteTokens ?? 0) === billed.prompt && usage.cacheReadTokens === billed.cached && usage.outputTokens === billed.completion;
    const sameMoney = record?.cost !== undefined && Math.abs(record.cost.billedUsd - billed.usd) <= 1e-9 + billed.usd * 1e-9;
    check(
      `${name}: the export's usage and billed money are what the endpoint billed over the turn's ${rounds} round${rounds === 1 ? '' : 's'}`,
      sameUsage && sameMoney,
      `endpoint: ${billed.prompt} prompt (${billed.cached} cached) + ${billed.completion} output = ${money(billed.usd)}; export: ${JSON.stringify(usage)} over ${record?.rounds} rounds = ${record?.cost ? money(record.cost.billedUsd) : 'no cost'}`,
    );
    if (!record?.cost) return undefined;
    const originalUsd = usd(original);
    const off = Math.abs(record.cost.unoptimizedUsd - originalUsd) / originalUsd;
    check(
      `${name}: "without Herald" is the original sent once, as the endpoint would have billed it`,
      off <= ESTIMATE_TOLERANCE,
      `Herald's estimate ${money(record.cost.unoptimizedUsd)}; the endpoint's bill for the original (${original.prompt_tokens} prompt, ${original.prompt_tokens_details.cached_tokens} cached) ${money(originalUsd)}; ${(off * 100).toFixed(1)}% apart (at most ${ESTIMATE_TOLERANCE * 100}%)`,
    );
    return { billed: record.cost.billedUsd, estimate: record.cost.unoptimizedUsd, originalUsd, billedPrompt: billed.prompt };
  };
  const direct = turn('answered straight away', directRecord, turns.direct, originals.direct);
  check(
    'a turn answered without retrieval: Herald sent less, so it cost less than the original would have by the endpoint\'s bill, and the figures shown say so unless the difference is within the estimate\'s tolerance',
    direct !== undefined && direct.billed < direct.originalUsd && (direct.billed < direct.estimate || (direct.billed - direct.estimate) / direct.estimate <= ESTIMATE_TOLERANCE),
    direct ? `billed ${money(direct.billed)}; without Herald ${money(direct.estimate)} (the endpoint's bill for the original: ${money(direct.originalUsd)})` : 'no priced record',
  );
  const retrieve = turn('with a retrieve round', retrieveRecord, turns.retrieve, originals.retrieve);
  // Both rounds carry the shortened request, and the second the original piece as well: together more than the original once.
  check(
    'a turn with a retrieve round: billed over both rounds against the original once, and the figures shown say which cost more as the endpoint\'s bill does',
    retrieve !== undefined && retrieve.billedPrompt > originals.retrieve.prompt_tokens && (retrieve.billed > retrieve.originalUsd) === (retrieve.billed > retrieve.estimate),
    retrieve ? `${retrieve.billedPrompt} prompt tokens over both rounds against ${originals.retrieve.prompt_tokens} once; billed ${money(retrieve.billed)}; without Herald ${money(retrieve.estimate)} (the endpoint's bill for the original: ${money(retrieve.originalUsd)})` : 'no priced record',
  );
}
