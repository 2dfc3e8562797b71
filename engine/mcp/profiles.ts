import { invalidInput } from '../errors';

/**
 * Which tools a client sees. `full`: everything; `core`: the few memory tools an agent needs every
 * session; `compat`: exactly the nine tools of the official MCP memory server, so an agent
 * configured for that server works unchanged.
 */
export const PROFILES = ['full', 'core', 'compat'] as const;
export type Profile = (typeof PROFILES)[number];

export function parseProfile(value: string | undefined, source: string): Profile {
  if (value === undefined || value === '') return 'full';
  if ((PROFILES as readonly string[]).includes(value)) return value as Profile;
  throw invalidInput(`${source} must be one of ${PROFILES.join(', ')}; got "${value}"`);
}
