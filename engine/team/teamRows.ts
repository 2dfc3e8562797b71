import type { SqlReader, SqlWriter } from '../store/sqlAccess';

/** What `team_files` holds for one team memory (see schema.ts). */
export interface TeamRow {
  teamId: string;
  memoryId: string;
  theirsId: string | null;
  contentHash: string | null;
  fileVersion: number;
  changedAt: number;
  changedBy: 'files' | 'local';
  lastChange: TeamChange;
}

export type TeamChange = 'added' | 'edited' | 'retired' | 'conflict' | 'resolved';

const COLUMNS =
  'team_id AS teamId, memory_id AS memoryId, theirs_id AS theirsId, content_hash AS contentHash, ' +
  'file_version AS fileVersion, changed_at AS changedAt, changed_by AS changedBy, last_change AS lastChange';

export function teamRows(reader: SqlReader): TeamRow[] {
  return reader.all<TeamRow>(`SELECT ${COLUMNS} FROM team_files ORDER BY team_id`);
}

/** The team memory a local memory holds (either side of a conflict), if it holds one. */
export function teamRowOfMemory(reader: SqlReader, memoryId: string): TeamRow | undefined {
  return reader.get<TeamRow>(`SELECT ${COLUMNS} FROM team_files WHERE memory_id = ? OR theirs_id = ?`, [
    memoryId,
    memoryId,
  ]);
}

export function teamRow(reader: SqlReader, teamId: string): TeamRow | undefined {
  return reader.get<TeamRow>(`SELECT ${COLUMNS} FROM team_files WHERE team_id = ?`, [teamId]);
}

export function saveTeamRow(tx: SqlWriter, row: TeamRow): void {
  tx.run(
    'INSERT OR REPLACE INTO team_files (team_id, memory_id, theirs_id, content_hash, file_version, changed_at, ' +
      'changed_by, last_change) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    [
      row.teamId,
      row.memoryId,
      row.theirsId,
      row.contentHash,
      row.fileVersion,
      row.changedAt,
      row.changedBy,
      row.lastChange,
    ],
  );
}
