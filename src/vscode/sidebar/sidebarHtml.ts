/**
 * The sidebar webviews' page: a strict content security policy (nothing by default, styles and
 * images from the extension only, scripts only with this page's nonce) and no inline code.
 * Pure, so it is tested without VS Code.
 */

export interface SidebarHtmlInput {
  /** A fresh random value per page load. */
  readonly nonce: string;
  /** `webview.cspSource`. */
  readonly cspSource: string;
  readonly scriptUri: string;
  readonly styleUri: string;
  readonly title: string;
}

export function sidebarHtml(input: SidebarHtmlInput): string {
  const csp = [`default-src 'none'`, `style-src ${input.cspSource}`, `img-src ${input.cspSource} data:`, `script-src 'nonce-${input.nonce}'`].join('; ');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escapeAttribute(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link href="${escapeAttribute(input.styleUri)}" rel="stylesheet">
<title>${escapeText(input.title)}</title>
</head>
<body>
<main id="root" aria-live="polite"><p class="muted">Loading…</p></main>
<script nonce="${escapeAttribute(input.nonce)}" src="${escapeAttribute(input.scriptUri)}"></script>
</body>
</html>`;
}

function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function escapeAttribute(text: string): string {
  return escapeText(text).replace(/"/g, '&quot;');
}
