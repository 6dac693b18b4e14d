/**
 * Whether a share of lines passing a test settles a threshold, with the lines read only until it
 * is settled: once enough have passed, or once too few are left for it. `reaches(count)` says
 * whether `count` passing lines would meet the threshold (as a share of whatever total the caller
 * divides by); it must not fall as the count grows. Format detection and the census ask it with
 * their own thresholds (at least a share, more than a share) and their own totals.
 */
export function shareSettles(lines: readonly string[], passes: (line: string) => boolean, reaches: (count: number) => boolean): boolean {
  let passed = 0;
  for (let index = 0; index < lines.length; index++) {
    if (passes(lines[index]!)) {
      passed++;
      if (reaches(passed)) return true;
    } else if (!reaches(passed + lines.length - index - 1)) return false;
  }
  return reaches(passed);
}
