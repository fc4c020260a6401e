const grouped = new Intl.NumberFormat('en-US');

/** 200000 → "200,000". */
export function count(value: number): string {
  return grouped.format(Math.round(value));
}

/** Bytes in mebibytes with one decimal: "41.3 MiB". */
export function mib(bytes: number | undefined): string {
  return bytes === undefined ? 'n/a' : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(2)} s`;
}

export function millis(ms: number): string {
  return `${ms.toFixed(ms < 10 ? 2 : 1)} ms`;
}

export function rate(items: number, ms: number): string {
  return `${count(ms > 0 ? (items * 1000) / ms : 0)}/s`;
}

/** The value below which `share` (0..1) of the values lie, nearest rank. */
export function percentile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.max(1, Math.ceil(share * sorted.length));
  return sorted[rank - 1] ?? Number.NaN;
}

/** `value` over `limit` as "0.42×". */
export function ratio(value: number, limit: number): string {
  return `${(limit > 0 ? value / limit : 0).toFixed(2)}×`;
}

/** The middle value (the mean of the two middle ones for an even count); NaN for none. */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  if (sorted.length === 0) return Number.NaN;
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? Number.NaN)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}
