/**
 * Compiles tool-name patterns (`get_weather`, `fs__*`, `*`) into one predicate; `*` matches any run
 * of characters, everything else matches literally.
 */
export function toolNameMatcher(patterns: readonly string[]): (name: string) => boolean {
  const exact = new Set<string>();
  const wildcards: RegExp[] = [];
  for (const pattern of patterns) {
    if (!pattern.includes('*')) {
      exact.add(pattern);
      continue;
    }
    const source = pattern
      .split('*')
      .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('.*');
    wildcards.push(new RegExp(`^${source}$`, 's'));
  }
  return (name) => exact.has(name) || wildcards.some((re) => re.test(name));
}
