/** The Library view: pages by folder with type, status and flags; search with "nothing found" and the nearest pages; activity. */
import { element, formatTime, vscodeApi } from '../dom';
import { parseHostMessage, type LibraryView, type PageView, type WebviewMessage } from '../protocol';

const root = document.getElementById('root')!;
const post = (message: WebviewMessage): void => vscodeApi().postMessage(message);
let lastQuery = '';

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const message = parseHostMessage(event.data);
  if (message?.type === 'library') render(message.library);
});
post({ type: 'ready' });

function render(library: LibraryView): void {
  const input = element('input', { type: 'search', placeholder: 'Search the library…', 'aria-label': 'Search the library', value: lastQuery });
  const form = element(
    'form',
    {
      class: 'search',
      role: 'search',
      onsubmit: (event) => {
        event.preventDefault();
        lastQuery = input.value;
        post({ type: 'search', query: input.value });
      },
    },
    input,
  );
  const actions = element('div', { class: 'actions' }, button('New page', () => post({ type: 'command', command: 'new-page' })), button('Reindex', () => post({ type: 'command', command: 'reindex' })));
  const body: Node[] = [element('section', { class: 'summary' }, element('div', { class: 'big' }, `${library.pages.length} pages`), element('div', { class: 'muted' }, `in ${library.folder}/`), actions)];
  if (library.message) body.push(element('p', { class: library.available ? 'warning' : 'muted' }, library.message));
  if (library.available) body.push(form);
  if (library.search) body.push(searchResults(library.search));
  if (library.pages.length > 0) body.push(pagesByFolder(library.pages));
  if (library.activity.length > 0) {
    const list = element('ul', { class: 'activity' });
    for (const entry of library.activity.slice(0, 10)) list.append(element('li', {}, element('span', { class: 'muted' }, `${formatTime(entry.time)} `), entry.text));
    body.push(element('section', { 'aria-label': 'Activity' }, element('h2', {}, 'Activity'), list));
  }
  root.replaceChildren(...body);
}

function searchResults(search: NonNullable<LibraryView['search']>): HTMLElement {
  const section = element('section', { class: 'results', 'aria-label': `Results for ${search.query}` }, element('h2', {}, `Results for “${search.query}”`));
  if (search.results.length > 0) {
    section.append(pageList(search.results));
  } else {
    section.append(element('p', { class: 'nothing-found' }, 'Nothing found.'));
    if (search.nearest.length > 0) section.append(element('p', { class: 'muted' }, 'The nearest pages:'), pageList(search.nearest));
  }
  return section;
}

function pagesByFolder(pages: readonly PageView[]): HTMLElement {
  const folders = new Map<string, PageView[]>();
  for (const page of pages) folders.set(page.folder, [...(folders.get(page.folder) ?? []), page]);
  const section = element('section', { class: 'pages', 'aria-label': 'Pages' });
  for (const [folder, inFolder] of folders) {
    section.append(element('h2', {}, folder === '' ? 'Top level' : `${folder}/`), pageList(inFolder));
  }
  return section;
}

function pageList(pages: readonly PageView[]): HTMLElement {
  const list = element('ul', { class: 'page-list' });
  for (const page of pages) {
    list.append(
      element(
        'li',
        { class: 'page', 'data-page-id': page.id },
        element('button', { class: 'link', title: `Open ${page.path}`, onclick: () => post({ type: 'open-page', path: page.path }) }, page.title),
        element('span', { class: 'badge' }, page.type),
        page.status !== 'published' && element('span', { class: 'badge draft' }, page.status),
        ...page.flags.map((flag) => element('span', { class: `badge flag-${flag.replace(/\s+/g, '-')}` }, flag)),
      ),
    );
  }
  return list;
}

function button(label: string, onclick: () => void): HTMLButtonElement {
  return element('button', { type: 'button', onclick }, label);
}
