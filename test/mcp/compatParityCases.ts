/**
 * The parity cases for the compat profile: each is a sequence of calls that the official MCP
 * memory server (the oracle) and Engram must answer the same way, step by step. Written from the
 * official server's published behaviour (its README, its tests and its source in
 * modelcontextprotocol/servers, src/memory), in our own words. The harness appends a read_graph to
 * every case, so each one also compares the graph it leaves behind.
 */
import { createCases, relationCases } from './compatParityCreateCases';
import { deleteCases, observationCases } from './compatParityEditCases';
import { readCases, surfaceCases } from './compatParityReadCases';
import type { ParityCase } from './compatParitySteps';

export type { ParityCase, ParityStep } from './compatParitySteps';

export const PARITY_CASES: ParityCase[] = [
  ...createCases,
  ...relationCases,
  ...observationCases,
  ...deleteCases,
  ...readCases,
  ...surfaceCases,
];
