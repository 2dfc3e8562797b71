/** The shapes of the official MCP memory server's knowledge graph, as its tools take and return them. */
export interface KgEntity {
  name: string;
  entityType: string;
  observations: string[];
}

export interface KgRelation {
  from: string;
  to: string;
  relationType: string;
}

export interface KgGraph {
  entities: KgEntity[];
  relations: KgRelation[];
}

export interface KgObservationRequest {
  entityName: string;
  contents: string[];
}

export interface KgObservationDeletion {
  entityName: string;
  observations: string[];
}

export interface KgAddedObservations {
  entityName: string;
  addedObservations: string[];
}
