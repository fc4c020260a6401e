/** A column the header names more than once: which of them a field means cannot be told. */
export interface DuplicateColumn {
  column: string;
  message: string;
}

/**
 * The names in `header` (trimmed) that stand more than once among those `isRead`, each with
 * its column numbers (from 1). A column nothing reads may repeat (two empty names, say).
 */
export function duplicateColumns(
  header: readonly string[],
  isRead: (name: string) => boolean,
): DuplicateColumn[] {
  const positions = new Map<string, number[]>();
  header.forEach((raw, index) => {
    const name = raw.trim();
    if (!isRead(name)) return;
    positions.set(name, [...(positions.get(name) ?? []), index + 1]);
  });
  return [...positions]
    .filter(([, columns]) => columns.length > 1)
    .map(([column, columns]) => ({
      column,
      message: `the header names ${column} ${columns.length === 2 ? 'twice' : `${columns.length} times`} (columns ${columns.slice(0, -1).join(', ')} and ${String(columns.at(-1))}): which one is meant cannot be told; name each column once`,
    }));
}
