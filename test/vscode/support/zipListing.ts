import { readFileSync } from 'node:fs';

export interface ZipEntry {
  name: string;
  /** Bytes once unpacked: what the installed extension takes on disk. */
  size: number;
}

/**
 * The entries of a zip archive (a .vsix is one), read from its central directory: enough to
 * check what a package ships without unpacking it or depending on an unzip tool.
 */
export function zipEntries(file: string): ZipEntry[] {
  const zip = readFileSync(file);
  // The end-of-central-directory record sits in the last 64 KiB (22 bytes plus a comment).
  let end = -1;
  for (let i = zip.length - 22; i >= Math.max(0, zip.length - 65_557); i--) {
    if (zip.readUInt32LE(i) === 0x06054b50) {
      end = i;
      break;
    }
  }
  if (end < 0) throw new Error(`${file} is not a zip archive`);
  const count = zip.readUInt16LE(end + 10);
  let offset = zip.readUInt32LE(end + 16);
  const entries: ZipEntry[] = [];
  for (let n = 0; n < count; n++) {
    if (zip.readUInt32LE(offset) !== 0x02014b50) throw new Error(`${file}: bad central directory entry ${n}`);
    const size = zip.readUInt32LE(offset + 24);
    const nameLength = zip.readUInt16LE(offset + 28);
    const extraLength = zip.readUInt16LE(offset + 30);
    const commentLength = zip.readUInt16LE(offset + 32);
    entries.push({ name: zip.toString('utf8', offset + 46, offset + 46 + nameLength), size });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** The file names in a zip archive. */
export function zipEntryNames(file: string): string[] {
  return zipEntries(file).map((e) => e.name);
}
