import { EngramError } from '../errors';
import { insertRows } from '../store/heldRows';
import type { SqlReader, SqlWriter } from '../store/sqlAccess';
import type { SqlValue } from '../store/statementLog';
import { newId } from './ids';
import type { MemoryLimits } from './limits';
import type { EmbeddedText } from './novelty';
import { rejection } from './rejection';
import { prepareRemember } from './rememberWrite';
import type { PreparedRemember, RememberWrite } from './rememberWrite';
import { VERSION_INSERT, versionRow } from './rows';
import type { Actor, RememberInput, RememberManyResult } from './types';
import { validateRemember } from './validate';
import type { ValidRemember } from './validate';

/** One group of a batch (a scanned file's drafts, or a `rememberMany` call), with the caller's writes around it. */
export interface DerivedGroup {
  inputs: RememberInput[];
  /** Lines up with `inputs`: what their embeddings found (near duplicates, surprise, the vector). */
  embedded?: ReadonlyArray<EmbeddedText | undefined>;
  /**
   * Runs before the group is written, after the held rows are: for writes that read or change
   * stored memories (invalidating what the group no longer derives).
   */
  before?(): void;
  /** Runs with the group's results (one per input, in order) once its memories exist. */
  after?(results: RememberManyResult[]): void;
}

/** Hashes or keys per lookup statement: a power of two, under SQLite's 999 bound parameters. */
const LOOKUP_CHUNK = 512;

/**
 * Many memories in one transaction (a `rememberMany` call, or the scanner's drafts in groups, one
 * per file), writing the rows `remember` would write for each with far fewer statements. Most
 * memories of a batch meet nothing stored: no current memory has their text or their conflict
 * key, and no embedding found a restatement. For those, what they could meet is looked up once for
 * the whole batch instead of once or twice per memory, and their version rows are held with the
 * side rows and inserted a few statements per table at `flush` (one statement per version row
 * before: 18% of a batched remember's CPU). An input that meets a stored memory, one written
 * earlier in the batch or a possible restatement takes `remember`'s own path after a flush.
 */
export class DerivedBatch {
  private versions: SqlValue[][] = [];
  /** `h:` hashes and `k:` conflict keys of memories this batch created. */
  private readonly created = new Set<string>();

  constructor(
    private readonly tx: SqlWriter,
    private readonly now: number,
    private readonly actor: Actor,
    private readonly limits: MemoryLimits,
    private readonly remembering: RememberWrite,
  ) {}

  /** Writes the groups in order; see DerivedGroup for the caller's hooks. */
  remember(groups: readonly DerivedGroup[]): void {
    const valid = groups.map((group) => group.inputs.map((input, index) => this.validate(input, index)));
    const prepared = valid.map((inputs) =>
      inputs.map((v) => ('outcome' in v ? undefined : prepareRemember(v, this.actor))),
    );
    const stored = storedHashesAndKeys(this.tx, valid.flat(), prepared.flat());
    for (const [g, group] of groups.entries()) {
      if (group.before) {
        this.flush();
        group.before();
      }
      const results = valid[g]!.map((v, i): RememberManyResult => {
        if ('outcome' in v) return v;
        const p = prepared[g]![i]!;
        const embedded = group.embedded?.[i];
        const result = this.meetsNothing(v, p, stored, embedded)
          ? this.create(v, p, embedded)
          : this.rememberFully(v, i, embedded);
        // What later inputs could meet now: a new memory, or one a restatement rewrote to this text.
        if (result.outcome !== 'rejected' && result.outcome !== 'unchanged') {
          this.created.add(`h:${p.hash}`);
          if (v.conflictKey !== null) this.created.add(`k:${v.conflictKey}`);
        }
        return result;
      });
      group.after?.(results);
    }
  }

  /** Inserts the held version rows, then the side rows and links `remember` holds. */
  flush(): void {
    this.flushVersions();
    this.remembering.flush(this.tx);
  }

  private flushVersions(): void {
    insertRows(this.tx, VERSION_INSERT, this.versions);
    this.versions = [];
  }

  private validate(input: RememberInput, index: number): ValidRemember | RememberManyResult {
    try {
      return validateRemember(input, this.limits);
    } catch (error) {
      if (EngramError.is(error)) return rejection(index, error);
      throw error;
    }
  }

  /**
   * True when `remember` would find no duplicate, no restatement and nothing to supersede: no
   * current memory had the text or the key when the batch began (`stored` ignores scope and agent,
   * so it errs towards the full path), the batch created none, and no neighbour of its embedding
   * is close enough to be restated (whatever its layer). Working memory always takes the full path
   * (limits).
   */
  private meetsNothing(
    v: ValidRemember,
    p: PreparedRemember,
    stored: Set<string>,
    embedded: EmbeddedText | undefined,
  ): boolean {
    if (v.layer === 'working') return false;
    if (v.dedupe && embedded && (embedded.nearest[0]?.score ?? 0) >= this.limits.nearDuplicateThreshold)
      return false;
    const hash = `h:${p.hash}`;
    if (v.dedupe && (stored.has(hash) || this.created.has(hash))) return false;
    if (v.conflictKey === null) return true;
    const key = `k:${v.conflictKey}`;
    return !stored.has(key) && !this.created.has(key);
  }

  private create(
    v: ValidRemember,
    p: PreparedRemember,
    embedded: EmbeddedText | undefined,
  ): RememberManyResult {
    const created = { id: newId('m', this.now), validFrom: v.validFrom ?? this.now, superseded: [] };
    return this.remembering.create(this.tx, p, v, this.actor, this.now, embedded, created, (_, version) =>
      this.versions.push(versionRow(version)),
    );
  }

  private rememberFully(
    v: ValidRemember,
    index: number,
    embedded: EmbeddedText | undefined,
  ): RememberManyResult {
    // `remember` reads the stored memories before it flushes the side rows (where it would have
    // anyway, so links and lexical rows are written in the order one remember at a time writes
    // them): the held versions must be there first.
    this.flushVersions();
    const result = this.remembering.remember(this.tx, v, this.actor, this.now, embedded);
    return result instanceof EngramError ? rejection(index, result) : result;
  }
}

/** `h:` hashes and `k:` conflict keys of the inputs that a current, active memory has now. */
function storedHashesAndKeys(
  reader: SqlReader,
  inputs: ReadonlyArray<ValidRemember | RememberManyResult>,
  prepared: ReadonlyArray<PreparedRemember | undefined>,
): Set<string> {
  const hashes = new Set<string>();
  const keys = new Set<string>();
  for (const [i, v] of inputs.entries()) {
    if ('outcome' in v) continue;
    hashes.add(prepared[i]!.hash);
    if (v.conflictKey !== null) keys.add(v.conflictKey);
  }
  const found = new Set<string>();
  const lookup = (column: string, prefix: string, values: string[]) => {
    for (let start = 0; start < values.length; start += LOOKUP_CHUNK) {
      const chunk = padded(values.slice(start, start + LOOKUP_CHUNK));
      const rows = reader.all<{ v: string }>(
        `SELECT ${column} AS v FROM memories WHERE ${column} IN (${chunk.map(() => '?').join(', ')})
         AND superseded_at IS NULL AND status = 'active'`,
        chunk,
      );
      for (const row of rows) found.add(`${prefix}${row.v}`);
    }
  };
  lookup('content_hash', 'h:', [...hashes]);
  lookup('conflict_key', 'k:', [...keys]);
  return found;
}

/**
 * The values repeated up to a power-of-two count: few distinct statement texts, as the statement
 * cache keeps every text it prepared.
 */
function padded(values: string[]): string[] {
  let size = 1;
  while (size < values.length) size *= 2;
  const out = values.slice();
  while (out.length < size) out.push(values[values.length - 1]!);
  return out;
}
