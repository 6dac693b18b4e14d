/** The Decisions view: every request's tokens, strategies and handles, and a savings chart. */
import { element, formatNumber, formatTime, svg, vscodeApi } from '../dom';
import { parseHostMessage, type DecisionView, type HostMessage, type RequestView, type WebviewMessage } from '../protocol';
import { formatCount, moneyComparison, moneyLine, savingsPhrase, usagePhrase, usd } from '../figuresText';

type DecisionsMessage = Extract<HostMessage, { type: 'decisions' }>;

const root = document.getElementById('root')!;
const post = (message: WebviewMessage): void => vscodeApi().postMessage(message);

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostMessage(event.data);
  if (message?.type === 'decisions') render(message);
});
post({ type: 'ready' });

function render(message: DecisionsMessage): void {
  const { totals } = message;
  const header = element(
    'section',
    { class: 'summary', 'aria-label': 'Session totals' },
    element('div', { class: totals.tokensSaved < 0 ? 'big warning' : 'big' }, totals.tokensSaved < 0 ? `${formatNumber(-totals.tokensSaved)} tokens more than without Herald` : `${formatNumber(totals.tokensSaved)} tokens saved`),
    element(
      'div',
      { class: 'muted' },
      `${totals.requests} ${totals.requests === 1 ? 'request' : 'requests'}${totals.ownCalls > 0 ? ` + ${totals.ownCalls} of Herald's own (cost only)` : ''} · ${formatCount(totals.tokensBefore)} → ${formatCount(totals.tokensAfter)} tokens sent (${savingsPhrase(totals.savedPercent)}) · ${totals.retrievals} ${totals.retrievals === 1 ? 'original' : 'originals'} retrieved${totals.failures > 0 ? ` · ${totals.failures} failed (saved nothing)` : ''}${totals.cancelled > 0 ? ` · ${totals.cancelled} cancelled` : ''}`,
    ),
    costSummary(message),
    element('div', { class: message.optimizerEnabled ? 'state on' : 'state off' }, message.optimizerEnabled ? 'Optimizer on' : 'Optimizer off: requests are forwarded untouched'),
    element(
      'div',
      { class: 'actions' },
      button('Retrieve…', () => post({ type: 'command', command: 'retrieve' })),
      button('Export report', () => post({ type: 'command', command: 'export-report' })),
      button(message.optimizerEnabled ? 'Turn off' : 'Turn on', () => post({ type: 'command', command: 'toggle-optimizer' })),
    ),
  );
  const body: Node[] = [header];
  if (message.requests.length === 0) {
    body.push(
      element(
        'section',
        { class: 'empty' },
        element('p', {}, 'No requests yet.'),
        element('p', { class: 'muted' }, 'Open the chat, pick a "Herald · …" model (enable it under Manage Models first), and send a message. Each request shows up here with what Herald did to it and what it cost.'),
        button('Enable Herald models…', () => post({ type: 'command', command: 'enable-models' })),
        button('Add an endpoint…', () => post({ type: 'command', command: 'manage-endpoints' })),
      ),
    );
  } else {
    body.push(chart(message.requests));
    const list = element('section', { class: 'requests', 'aria-label': 'Requests, newest first' });
    [...message.requests].reverse().forEach((request, index) => list.append(requestEntry(request, index === 0)));
    body.push(list);
  }
  root.replaceChildren(...body);
}

function requestEntry(request: RequestView, open: boolean): HTMLElement {
  const summary = element(
    'summary',
    {},
    element('span', { class: 'model' }, request.model),
    element('span', { class: 'tokens' }, ` ${formatNumber(request.tokensBefore)} → ${formatNumber(request.tokensAfter)}`),
    request.origin === 'herald'
      ? element('span', { class: 'badge', title: "Herald's own call (the library's plan or the filter's check): counted as cost, never as savings" }, "Herald's own call")
      : element('span', { class: request.savedPercent > 0 ? 'saved' : request.savedPercent < 0 ? 'warning' : 'muted' }, ` ${savingsPhrase(request.savedPercent)}`),
  );
  const facts = element(
    'div',
    { class: 'facts muted' },
    `${formatTime(request.startedAt)} · optimized in ${Math.round(request.optimizeMs)} ms · answered in ${formatNumber(request.totalMs)} ms`,
    request.contextQuality !== undefined ? ` · context quality ${request.contextQuality}` : '',
    request.retrievals > 0 ? ` · ${request.retrievals} retrieved in the turn` : '',
    request.replayedMessages > 0 ? ` · ${request.replayedMessages} messages kept as decided on earlier turns` : '',
  );
  const cost = element('div', { class: 'cost', 'data-billing': request.billing }, costLine(request));
  const preview = request.promptPreview !== undefined && element('blockquote', { class: 'prompt', title: 'Recorded because herald.contentMode is on' }, request.promptPreview);
  const status = request.status === 'optimized' ? undefined : element('div', { class: 'warning' }, statusLine(request));
  // What changed the request (or failed, or signalled) first; the strategies that left it alone fold away.
  const changed = request.decisions.filter((decision) => decision.status !== 'unchanged' && decision.status !== 'disabled' && decision.status !== 'skipped' && decision.status !== 'signal');
  const notable = [...changed, ...request.decisions.filter((decision) => decision.status === 'signal')];
  const quiet = request.decisions.filter((decision) => !notable.includes(decision));
  const list = element('ul', { class: 'decisions' }, ...notable.map(decisionEntry));
  const rest = quiet.length > 0 && element('details', { class: 'quiet' }, element('summary', { class: 'muted' }, `${quiet.length} more left it as it was`), element('ul', { class: 'decisions' }, ...quiet.map(decisionEntry)));
  const details = element('details', { class: 'request', 'data-request-id': request.id }, summary, facts, cost, preview, status, request.decisions.length > 0 ? list : element('p', { class: 'muted' }, 'No strategy ran on this request.'), rest);
  if (open) details.open = true;
  return details;
}

function decisionEntry(decision: DecisionView): HTMLElement {
  const delta = decision.tokensAfter - decision.tokensBefore;
  return element(
    'li',
    { class: `decision status-${decision.status}` },
    element('div', { class: 'decision-head' }, element('span', { class: 'strategy' }, decision.strategy), element('span', { class: 'delta' }, delta === 0 ? decision.status : `${delta > 0 ? '+' : '−'}${formatNumber(Math.abs(delta))} tokens`)),
    element('div', {}, decision.action),
    element('div', { class: 'muted reason' }, decision.reason),
    decision.handles.length > 0 && handleButtons(decision.handles),
  );
}

function handleButtons(handles: readonly string[]): HTMLElement {
  const container = element('div', { class: 'handles' });
  for (const handle of handles) container.append(element('button', { class: 'link handle', title: 'Open the original in an editor', onclick: () => post({ type: 'open-handle', handle }) }, handle));
  return container;
}

function statusLine(request: RequestView): string {
  switch (request.status) {
    case 'forwarded-original':
      return `The optimizer failed (${request.error ?? 'unknown error'}); the original request was sent.`;
    case 'optimizer-off':
      return 'The optimizer was off; the request was sent as it was.';
    case 'served-from-cache':
      return 'An exact repeat of an answered request: semantic_cache answered it and the model was not called. Send it again to reach the model, or turn herald.strategy.semanticCache.enabled off.';
    case 'failed':
      return `The model failed, so nothing was saved: ${request.error ?? 'unknown error'}`;
    case 'cancelled':
      return 'Stopped before the answer was complete; nothing counts as saved.';
    default:
      return '';
  }
}

/** What the requests cost: premium requests (with GitHub's multiplier table) and money from the providers' usage. */
function costSummary(message: DecisionsMessage): HTMLElement {
  const { totals } = message;
  const parts: (HTMLElement | string)[] = [];
  if (totals.premiumRequests > 0) {
    parts.push(
      element('span', { class: 'premium' }, `${formatNumber(totals.premiumRequests)} premium ${totals.premiumRequests === 1 ? 'request' : 'requests'} × the model's multiplier`),
      ' ',
      element('button', { class: 'link', title: message.multiplierUrl, onclick: () => post({ type: 'command', command: 'open-multipliers' }) }, "(GitHub's table)"),
    );
  }
  if (totals.pricedRequests > 0) {
    if (parts.length > 0) parts.push(' · ');
    parts.push(element('span', { class: 'money' }, moneyLine(totals.billedUsd, totals.unoptimizedUsd)), ' ', element('button', { class: 'link', title: `List prices checked ${message.pricesChecked}; edit them in herald.prices`, onclick: () => post({ type: 'command', command: 'open-prices' }) }, '(prices)'));
  }
  return element('div', { class: 'costs', 'aria-label': 'What the requests cost' }, ...parts);
}

/** One request's cost in the unit its target bills: every round Herald sent, against the original sent once. */
function costLine(request: RequestView): string {
  const rounds = request.rounds > 1 ? ` over ${request.rounds} requests (Herald answered the model's own-tool calls in between)` : '';
  if (request.billing === 'premium-requests') return `${request.premiumRequests} premium ${request.premiumRequests === 1 ? 'request' : 'requests'} × the model's multiplier${rounds}`;
  if (request.usage) {
    const billed = `billed ${usagePhrase(request.usage)}${rounds}`;
    if (!request.cost) return `${billed} (no price for this model in herald.prices)`;
    if (request.origin === 'herald') return `${billed} = ${usd(request.cost.billedUsd)}: Herald's own call, counted as cost with nothing saved against it`;
    const estimate = request.cost.withoutHerald ? ` (the original once: ${usagePhrase(request.cost.withoutHerald)})` : '';
    return `${billed} = ${usd(request.cost.billedUsd)}, ≈ ${usd(request.cost.unoptimizedUsd)} without Herald${estimate}: ${moneyComparison(request.cost.billedUsd, request.cost.unoptimizedUsd)}`;
  }
  if (request.billing === 'tokens') return `the endpoint reported no usage${rounds}`;
  return `billed by the model's own extension${rounds}`;
}

/** Tokens before (faint) and after (solid) for the last 40 requests. */
function chart(requests: readonly RequestView[]): HTMLElement {
  const shown = requests.slice(-40);
  const width = 300;
  const height = 70;
  const most = Math.max(1, ...shown.map((request) => request.tokensBefore));
  // A lone request is a bar, not a wall.
  const bar = Math.min(width / Math.max(shown.length, 1), 24);
  const bars: Node[] = [];
  shown.forEach((request, index) => {
    const x = index * bar;
    const before = (request.tokensBefore / most) * height;
    const after = (request.tokensAfter / most) * height;
    bars.push(svg('rect', { x: x + 1, y: height - before, width: Math.max(bar - 2, 1), height: before, class: 'bar-before' }));
    bars.push(svg('rect', { x: x + 1, y: height - after, width: Math.max(bar - 2, 1), height: after, class: 'bar-after' }));
  });
  const picture = svg('svg', { viewBox: `0 0 ${width} ${height}`, role: 'img', 'aria-label': `Tokens before and after for the last ${shown.length} requests`, class: 'chart' }, ...bars);
  return element('section', { class: 'chart-section' }, element('div', { class: 'muted' }, 'Tokens per request: sent (solid) of original (faint)'), picture);
}

function button(label: string, onclick: () => void): HTMLButtonElement {
  return element('button', { type: 'button', onclick }, label);
}
