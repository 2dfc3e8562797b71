import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import path from 'node:path';

/** fsyncs a directory so that a rename or create inside it survives a crash. No-op where unsupported. */
export function fsyncDirectory(dir: string): void {
  if (process.platform === 'win32') return; // directories cannot be opened for fsync on Windows
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Replaces `target` with `bytes` atomically: write a temp file, fsync it, rename it over the
 * target, fsync the directory. A crash leaves either the old file or the new one, never a mix.
 */
export function writeFileAtomic(target: string, bytes: Uint8Array): void {
  const temp = `${target}.tmp`;
  const fd = openSync(temp, 'w', 0o600);
  try {
    let offset = 0;
    while (offset < bytes.byteLength) offset += writeSync(fd, bytes, offset, bytes.byteLength - offset);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(temp, target);
  fsyncDirectory(path.dirname(target));
}
