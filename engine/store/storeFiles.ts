/** The files that make up one durable database. */
export interface StoreFiles {
  database: string;
  /** The snapshot before the current one; with the journal it can rebuild a damaged database. */
  previous: string;
  journal: string;
  /** The checksum of the snapshot as Engram wrote it (snapshotFile.ts, loadSnapshot). */
  snapshotSum: string;
  snapshotTemp: string;
  journalTemp: string;
}

export function storeFiles(databasePath: string): StoreFiles {
  return {
    database: databasePath,
    previous: `${databasePath}.prev`,
    journal: `${databasePath}.journal`,
    snapshotSum: `${databasePath}.sum`,
    snapshotTemp: `${databasePath}.tmp`,
    journalTemp: `${databasePath}.journal.tmp`,
  };
}
