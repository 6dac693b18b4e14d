/** The page of Herald's read-only view of an original (see originalView.ts). Pure, for tests. */

export const COPY_ORIGINAL_COMMAND = 'herald.copyOriginal';
export const OPEN_ORIGINAL_AS_TEXT_COMMAND = 'herald.openOriginalAsText';

/**
 * The page: the original as preformatted text, escaped; no script. The newline after `<pre>` is
 * the one an HTML parser drops, and carriage returns are written as references (a parser would
 * turn CRLF into LF), so the page's text is the original exactly.
 */
export function originalHtml(input: { handle: string; original: string; language: string; cspSource: string; styleUri: string }): string {
  const csp = `default-src 'none'; style-src ${input.cspSource};`;
  const argument = encodeURIComponent(JSON.stringify([input.handle]));
  const lines = input.original.split('\n').length;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escape(csp)}">
<link href="${escape(input.styleUri)}" rel="stylesheet">
<title>Original ${escape(input.handle)}</title>
</head>
<body class="original-page">
<header class="original-head"><strong>${escape(input.handle)}</strong> <span class="muted">${lines.toLocaleString('en-US')} lines · ${input.original.length.toLocaleString('en-US')} characters · ${escape(input.language)} · read-only, not attached to chat</span>
<a href="command:${COPY_ORIGINAL_COMMAND}?${argument}">Copy</a> · <a href="command:${OPEN_ORIGINAL_AS_TEXT_COMMAND}?${argument}" title="VS Code attaches the active editor to your next chat message">Open as text</a></header>
<pre class="original" data-handle="${escape(input.handle)}">
${escape(input.original).replace(/\r/g, '&#13;')}</pre>
</body>
</html>`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
