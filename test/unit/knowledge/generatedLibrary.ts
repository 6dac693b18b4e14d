/**
 * A large library generated from the prose and HTML text in ../shared/data, deterministic
 * for a given data folder: the knowledge benchmark builds 5,000 pages of it, the build
 * identity test a few hundred.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { sharedPath } from '../../support/sharedData';

/** One sentence of the shared text and the essay or page it came from. */
export interface SourceSentence {
  readonly source: string;
  readonly text: string;
}

const TYPES = ['reference', 'reference', 'reference', 'process', 'persona', 'template', 'voice', 'battlecard', 'table', 'reference'];
const STOP = new Set('the a an and or of to in is it that for on with as was at by be this are from but not have had you they we he she his her its their our i my me so if what which who when there been were would could will can do does than then them these those just about more very also into only some any all out up one'.split(' '));

/** Sentences from the essays and the readable part of every HTML page, with where each came from. */
export function sourceSentences(): SourceSentence[] {
  const sentences: SourceSentence[] = [];
  const add = (source: string, text: string): void => {
    for (const sentence of text.replace(/\s+/g, ' ').split(/(?<=[.!?])\s+(?=[A-Z"“])/)) {
      const trimmed = sentence.trim();
      if (trimmed.length >= 40 && trimmed.length <= 400) sentences.push({ source, text: trimmed });
    }
  };
  const proseDir = sharedPath('prose', 'paul-graham-essays');
  for (const file of fs.readdirSync(proseDir).filter((name) => name.endsWith('.txt')).sort()) add(file.replace(/\.txt$/, ''), fs.readFileSync(path.join(proseDir, file), 'utf8'));
  const htmlDir = sharedPath('html');
  for (const name of fs.readdirSync(htmlDir).sort()) {
    const file = path.join(htmlDir, name, 'expected.html');
    if (!fs.existsSync(file)) continue;
    const html = fs.readFileSync(file, 'utf8');
    for (const match of html.matchAll(/<p[^>]*>([\s\S]*?)<\/p>/gi)) add(name, decode(match[1]!.replace(/<[^>]+>/g, ' ')));
  }
  return sentences;
}

function decode(text: string): string {
  return text.replace(/&nbsp;/g, ' ').replace(/&amp;/g, '&').replace(/&quot;/g, '"').replace(/&#39;|&rsquo;|&lsquo;/g, "'").replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&[a-z]+;|&#\d+;/g, ' ');
}

function words(text: string): string[] {
  return text.toLowerCase().split(/[^a-z]+/).filter((word) => word.length > 3 && !STOP.has(word));
}

function yamlString(text: string): string {
  return JSON.stringify(text);
}

/**
 * Writes `pageCount` pages into `directory`, in folders named after their first sentence's
 * source: rules, references, processes, personas, templates, voice, battlecards and table
 * pages, with tags, `good_for`, a few pinned and draft pages and a link every 25 pages.
 * With `oneFolder`, every page goes in one folder (what is quadratic in a folder's size shows).
 */
export function generateLibrary(directory: string, sentences: readonly SourceSentence[], pageCount: number, options: { readonly oneFolder?: boolean } = {}): void {
  for (let index = 0; index < pageCount; index++) {
    const start = (index * 7919) % sentences.length;
    const take = (offset: number): SourceSentence => sentences[(start + offset) % sentences.length]!;
    const first = take(0);
    const title = `${first.text.split(/\s+/).slice(0, 6).join(' ').replace(/[^\p{L}\p{N} '-]/gu, '')} (${index})`;
    const frequency = new Map<string, number>();
    for (let offset = 0; offset < 12; offset++) for (const word of words(take(offset).text)) frequency.set(word, (frequency.get(word) ?? 0) + 1);
    const tags = [...frequency].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).slice(0, 2).map(([word]) => word);
    const type = index < 20 ? 'rule' : TYPES[index % TYPES.length]!;
    const body: string[] = [`# ${title}`, ''];
    const sectionCount = type === 'rule' ? 1 : 3;
    for (let section = 0; section < sectionCount; section++) {
      const lead = take(section * 4 + 1);
      body.push(`## ${lead.text.split(/\s+/).slice(0, 5).join(' ').replace(/[^\p{L}\p{N} '-]/gu, '')}`, '');
      for (let offset = 0; offset < (type === 'rule' ? 2 : 4); offset++) body.push(take(section * 4 + offset + 1).text);
      body.push('');
    }
    if (type === 'table') {
      body.push('## Figures', '', `Key terms of ${title}.`, '', '| Term | Count | Example |', '|---|---|---|');
      for (const [word, count] of [...frequency].slice(0, 5)) body.push(`| ${word} | ${count} | ${take(count).text.split(/\s+/).slice(0, 4).join(' ')} |`);
      body.push('');
    }
    if (index % 25 === 0 && index > 0) body.push(`See also [[${(`${sentences[((index - 25) * 7919) % sentences.length]!.text.split(/\s+/).slice(0, 6).join(' ').replace(/[^\p{L}\p{N} '-]/gu, '')} (${index - 25})`)}]].`);
    const front = [
      '---',
      `title: ${yamlString(title)}`,
      `type: ${type}`,
      `tags: [${tags.map(yamlString).join(', ')}]`,
      `good_for: [${yamlString(`reading about ${tags.join(' and ')}`)}]`,
      ...(index % 500 === 7 ? ['pinned: true'] : []),
      ...(index % 97 === 3 ? ['status: draft'] : []),
      '---',
    ];
    const folder = path.join(directory, options.oneFolder ? 'pages' : first.source.replace(/[^a-z0-9-]+/gi, '-').toLowerCase());
    fs.mkdirSync(folder, { recursive: true });
    fs.writeFileSync(path.join(folder, `page-${index}.md`), `${front.join('\n')}\n${body.join('\n')}\n`);
  }
}

/** Tasks drawn from the same sentences, as the benchmark asks them. */
export function generatedTasks(sentences: readonly SourceSentence[], count: number): string[] {
  const tasks = Array.from({ length: count }, (_, index) => sentences[(index * 104_729) % sentences.length]!.text.split(/\s+/).slice(0, 12).join(' '));
  tasks.push('write an email to investors about startup funding', 'what did the article say about gun safety laws');
  return tasks;
}
