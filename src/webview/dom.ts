/**
 * Tiny DOM helpers for the sidebar. Text always goes in through `textContent`, never as
 * HTML, so nothing from a request or a page can run in the webview.
 */

type Child = Node | string | undefined | false;

/** An element with attributes (`on…` functions become listeners) and children. */
export function element<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, string | ((event: Event) => void) | undefined> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined) continue;
    if (typeof value === 'function') node.addEventListener(name.slice(2).toLowerCase(), value);
    else node.setAttribute(name, value);
  }
  for (const child of children) if (child !== undefined && child !== false) node.append(child);
  return node;
}

/** An SVG element (the savings chart). */
export function svg(tag: string, attributes: Record<string, string | number>, ...children: Node[]): SVGElement {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  for (const child of children) node.append(child);
  return node;
}

/** The VS Code webview API, available once per page. */
export interface WebviewApi {
  postMessage(message: unknown): void;
}

declare function acquireVsCodeApi(): WebviewApi;

let api: WebviewApi | undefined;
export function vscodeApi(): WebviewApi {
  api ??= acquireVsCodeApi();
  return api;
}

export function formatNumber(value: number): string {
  return Math.round(value).toLocaleString('en-US');
}

export function formatTime(epochMs: number): string {
  return new Date(epochMs).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });
}
