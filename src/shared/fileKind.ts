/** What `lstat` or `fstat` says an entry is; `Stats` and `Dirent` both answer these. */
export interface EntryType {
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
  isBlockDevice(): boolean;
}

/** Names a file system entry for a message: "a directory", "a FIFO (named pipe)", ... */
export function entryKind(entry: EntryType): string {
  if (entry.isFile()) return 'a regular file';
  if (entry.isDirectory()) return 'a directory';
  if (entry.isSymbolicLink()) return 'a symbolic link';
  if (entry.isFIFO()) return 'a FIFO (named pipe)';
  if (entry.isSocket()) return 'a socket';
  if (entry.isCharacterDevice()) return 'a character device';
  if (entry.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}
