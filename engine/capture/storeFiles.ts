import { promises as fsp } from 'node:fs';

/** How much of a session file is read to learn which directory it belongs to. */
export const HEAD_BYTES = 64 * 1024;

/** The first HEAD_BYTES of a file as text (what an agent writes first names its directory). */
export async function readHeadBytes(file: string): Promise<string> {
  const handle = await fsp.open(file, 'r');
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await handle.read(buffer, 0, HEAD_BYTES, 0);
    return buffer.toString('utf8', 0, bytesRead);
  } finally {
    await handle.close();
  }
}

/** A folder's entries, sorted; none when it does not exist (an agent never used here). */
export async function list(dir: string): Promise<string[]> {
  try {
    return (await fsp.readdir(dir)).sort();
  } catch {
    return [];
  }
}
