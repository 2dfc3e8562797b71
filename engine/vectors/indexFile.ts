import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import * as zlib from 'node:zlib';
import { fsyncDirectory } from '../store/fsync';
import type { RebuildReason } from './types';

/**
 * The on-disk form of a vector index:
 *
 *   "ENGRAMVX" | u32 format version | u32 header length | header JSON | pad to 8
 *   | HNSW bytes (hnswlib's saveIndex format) | pad to 8
 *   | exact labels (float64 x n) | exact vectors (float32 x n x dimension)
 *
 * Either section may be absent: an index below the crossover has only exact vectors, one mid-build
 * has both. The header names the model, dimension, count and label-set checksum so a reload can
 * tell a stale or foreign file from a good one, and a CRC-32 of the payload catches damage.
 */
const MAGIC = 'ENGRAMVX';
const FORMAT_VERSION = 1;
const PREAMBLE = 16;

export interface IndexFileHeader {
  modelId: string;
  dimension: number;
  /** Live vectors across both sections. */
  count: number;
  labelChecksum: string;
  space: 'ip';
  hnsw: { bytes: number; m: number; efConstruction: number } | null;
  exact: { count: number } | null;
  /** CRC-32 of the payload; null where the runtime has no zlib.crc32 (Node < 20.15). */
  crc32: number | null;
  savedAt: string;
}

export interface ExactSection {
  labels: Float64Array;
  vectors: Float32Array;
}

export interface IndexFileContents {
  header: IndexFileHeader;
  hnsw: Uint8Array | null;
  exact: ExactSection | null;
}

export interface IndexFileExpectations {
  modelId: string;
  dimension: number;
  count?: number;
  labelChecksum?: string;
}

export type IndexFileRead =
  { ok: true; contents: IndexFileContents } | { ok: false; reason: RebuildReason; detail: string };

let temps = 0;

export interface IndexFileSections {
  hnsw: { bytes: Uint8Array; m: number; efConstruction: number } | null;
  exact: ExactSection | null;
}

/** Writes atomically: a temp file beside `file`, fsync, rename, fsync the directory. */
export async function writeIndexFile(
  file: string,
  meta: Pick<IndexFileHeader, 'modelId' | 'dimension' | 'count' | 'labelChecksum'>,
  { hnsw, exact }: IndexFileSections,
): Promise<void> {
  const payload = payloadChunks(hnsw?.bytes ?? null, exact);
  const full: IndexFileHeader = {
    ...meta,
    space: 'ip',
    hnsw: hnsw ? { bytes: hnsw.bytes.byteLength, m: hnsw.m, efConstruction: hnsw.efConstruction } : null,
    exact: exact ? { count: exact.labels.length } : null,
    crc32: crc32(payload),
    savedAt: new Date().toISOString(),
  };
  const headerBytes = Buffer.from(JSON.stringify(full), 'utf8');
  const preamble = Buffer.alloc(PREAMBLE);
  preamble.write(MAGIC, 0, 'latin1');
  preamble.writeUInt32LE(FORMAT_VERSION, 8);
  preamble.writeUInt32LE(headerBytes.length, 12);
  const chunks = [preamble, headerBytes, padding(PREAMBLE + headerBytes.length), ...payload];

  await mkdir(path.dirname(file), { recursive: true });
  const temp = `${file}.${process.pid}-${threadId}-${++temps}.tmp`;
  try {
    const handle = await open(temp, 'w', 0o600);
    try {
      for (const chunk of chunks) await handle.write(chunk);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, file);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  fsyncDirectory(path.dirname(file));
}

/** Reads and checks a file; any mismatch with `expect` comes back as a reason to rebuild. */
export async function readIndexFile(file: string, expect: IndexFileExpectations): Promise<IndexFileRead> {
  let buffer: Buffer;
  try {
    buffer = await readFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT')
      return stale('missing', `no index file at ${file}`);
    return stale('unreadable', `cannot read ${file}: ${(error as Error).message}`);
  }
  const parsed = parse(buffer);
  if (typeof parsed === 'string') return stale('unreadable', parsed);
  const { header } = parsed.contents;
  if (header.modelId !== expect.modelId) {
    return stale('model-changed', `saved for model ${header.modelId}, now ${expect.modelId}`);
  }
  if (header.dimension !== expect.dimension) {
    return stale('dimension-changed', `saved with ${header.dimension} dimensions, now ${expect.dimension}`);
  }
  if (expect.count !== undefined && header.count !== expect.count) {
    return stale('count-mismatch', `holds ${header.count} vectors, the source has ${expect.count}`);
  }
  if (expect.labelChecksum !== undefined && header.labelChecksum !== expect.labelChecksum) {
    return stale('labels-mismatch', 'holds a different set of labels than the source');
  }
  return parsed;
}

function parse(buffer: Buffer): { ok: true; contents: IndexFileContents } | string {
  if (buffer.length < PREAMBLE || buffer.toString('latin1', 0, 8) !== MAGIC)
    return 'not an Engram vector index';
  const version = buffer.readUInt32LE(8);
  if (version !== FORMAT_VERSION) return `format version ${version} is not ${FORMAT_VERSION}`;
  const headerLength = buffer.readUInt32LE(12);
  let header: IndexFileHeader;
  try {
    header = JSON.parse(buffer.toString('utf8', PREAMBLE, PREAMBLE + headerLength)) as IndexFileHeader;
  } catch {
    return 'the header is not JSON';
  }
  if (
    typeof header.modelId !== 'string' ||
    !Number.isInteger(header.dimension) ||
    !Number.isInteger(header.count)
  ) {
    return 'the header is incomplete';
  }
  let offset = align(PREAMBLE + headerLength);
  const payloadStart = offset;
  const hnswLength = header.hnsw?.bytes ?? 0;
  const exactCount = header.exact?.count ?? 0;
  const expectedEnd = align(offset + hnswLength) + exactCount * (8 + 4 * header.dimension);
  if (buffer.length !== expectedEnd)
    return `the file is ${buffer.length} bytes, the header describes ${expectedEnd}`;
  const actualCrc = crc32([buffer.subarray(payloadStart)]);
  if (header.crc32 !== null && actualCrc !== null && actualCrc !== header.crc32)
    return 'the payload checksum does not match';

  const hnsw = header.hnsw ? buffer.subarray(offset, offset + hnswLength) : null;
  offset = align(offset + hnswLength);
  let exact: ExactSection | null = null;
  if (header.exact) {
    // Copies: typed-array views need alignment the Buffer's own offset does not promise.
    const labels = new Float64Array(exactCount);
    Buffer.from(labels.buffer).set(buffer.subarray(offset, offset + exactCount * 8));
    offset += exactCount * 8;
    const vectors = new Float32Array(exactCount * header.dimension);
    Buffer.from(vectors.buffer).set(buffer.subarray(offset, offset + vectors.byteLength));
    exact = { labels, vectors };
  }
  return { ok: true, contents: { header, hnsw, exact } };
}

function payloadChunks(hnsw: Uint8Array | null, exact: ExactSection | null): Uint8Array[] {
  const chunks: Uint8Array[] = [];
  if (hnsw) chunks.push(hnsw, padding(hnsw.byteLength));
  if (exact) {
    chunks.push(new Uint8Array(exact.labels.buffer, exact.labels.byteOffset, exact.labels.byteLength));
    chunks.push(new Uint8Array(exact.vectors.buffer, exact.vectors.byteOffset, exact.vectors.byteLength));
  }
  return chunks;
}

function crc32(chunks: Uint8Array[]): number | null {
  const fn = (zlib as { crc32?: (data: Uint8Array, value?: number) => number }).crc32;
  if (typeof fn !== 'function') return null;
  let value = 0;
  for (const chunk of chunks) value = fn(chunk, value);
  return value;
}

function align(offset: number): number {
  return Math.ceil(offset / 8) * 8;
}

function padding(length: number): Uint8Array {
  return new Uint8Array(align(length) - length);
}

function stale(reason: RebuildReason, detail: string): IndexFileRead {
  return { ok: false, reason, detail };
}
