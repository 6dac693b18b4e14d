/**
 * The knowledge library: Markdown pages with YAML front matter in a folder, packs, and
 * `get_context`, which hands an agent the rules and reference it needs for a task within a
 * token budget. Hosts (the VS Code tools, the @herald participant, the CLI) use this API:
 *
 * - {@link loadLibrary}: load a folder (problems per page; the rest still loads).
 * - {@link getContext}: the bundle for a task, Markdown and JSON.
 * - {@link readPage}: one page by id, with the same exclusions.
 * - {@link checkLibrary}: flags for pages that contradict or repeat their neighbours.
 */
export { loadLibrary, Library, INDEX_SCHEMA_VERSION, type LoadLibraryOptions, type LoadStatistics } from './library';
export { getContext, getContextInputSchema, type GetContextInput, type GetContextDependencies, type ContextResult, type ContextPage, type ContextSection, type InclusionReason } from './getContext';
export { readPage, type ReadPageOptions, type ReadPageResult } from './readPage';
export { checkLibrary, type LibraryFlag, type CheckLibraryOptions } from './checks';
export { JudgeMemory, type JudgeMode, type Verdict } from './judge';
export { knowledgeOptionsSchema, type KnowledgeOptions, type KnowledgeOptionsInput } from './options';
export { frontMatterSchema, type FrontMatter } from './frontMatter';
export type { Plan, PlannedName } from './plan';
export type { Page, Section, TableRow, Pack, Folder, LibraryProblem, LibrarySettings } from './types';
