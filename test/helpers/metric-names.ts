/** The metric names PromQL text names: the product's (ramp_*), the SDK's (temporal_*), and `up`. */
export function metricNamesOf(texts: string[]): string[] {
  const names = new Set<string>();
  for (const text of texts) {
    for (const match of text.matchAll(/\b((?:ramp|temporal)_[a-z_]+|up)\b(?=\s*[{[)\s]|$)/g))
      names.add(match[1]!);
  }
  return [...names].sort();
}
