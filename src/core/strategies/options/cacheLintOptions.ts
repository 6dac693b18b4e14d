/** The options of cache_lint: none; the schema carries its summary and rejects any name set. */
import { z } from 'zod';

export const CACHE_LINT_OPTIONS = z.object({}).describe('A read-only signal: which cached region changed since the last turn, and whether Herald explains it.');
