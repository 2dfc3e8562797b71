import type { Migration } from '../store/migrate';

/**
 * The knowledge graph of the official MCP memory server's tools (the compat profile), kept apart
 * from Engram's extracted entity graph: what a client created, exactly as it created it.
 * - Entity names are not unique: the official server appends every new name of a batch, so one
 *   batch naming an entity twice holds it twice. Order is the rowid (insertion) order.
 * - Observations are rows of their entity, in the order they were added: the same text on two
 *   entities is two rows, so deleting one never touches the other. Duplicates are allowed.
 * - Relations name their ends: a relation may point at a name that is no entity (yet).
 * - `*_folded` columns hold the text lower-cased as JavaScript does (all of Unicode; SQLite's
 *   lower() folds ASCII only), so search_nodes matches in SQL instead of reading the whole graph.
 */
export function knowledgeGraphMigration(version: number): Migration {
  return {
    version,
    name: 'compat knowledge graph: entities, ordered observations, relations by name',
    up(tx) {
      tx.run(`
        CREATE TABLE kg_entities (
          id INTEGER PRIMARY KEY,
          name TEXT NOT NULL,
          entity_type TEXT NOT NULL,
          name_folded TEXT NOT NULL,
          type_folded TEXT NOT NULL
        );
        CREATE INDEX kg_entities_name ON kg_entities (name);
        CREATE TABLE kg_observations (
          id INTEGER PRIMARY KEY,
          entity_id INTEGER NOT NULL,
          content TEXT NOT NULL,
          content_folded TEXT NOT NULL
        );
        CREATE INDEX kg_observations_entity ON kg_observations (entity_id, id);
        CREATE TABLE kg_relations (
          id INTEGER PRIMARY KEY,
          from_name TEXT NOT NULL,
          to_name TEXT NOT NULL,
          relation_type TEXT NOT NULL
        );
        CREATE INDEX kg_relations_from ON kg_relations (from_name, to_name, relation_type);
        CREATE INDEX kg_relations_to ON kg_relations (to_name);
      `);
    },
  };
}
