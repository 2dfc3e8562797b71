import type { buildCli as build, CliEnvironment } from './cliProgram';

/**
 * The CLI program, loaded on its first run: the MCP bridge shares the engine bundle
 * (engineCore.ts) and would otherwise evaluate every command, their output code and the MCP
 * config editor (jsonc, TOML) at start for nothing. A dynamic import, which esbuild turns into
 * a call that evaluates cliProgram's modules then instead of when the bundle loads.
 */
export function buildCli(io: CliEnvironment): ReturnType<typeof build> {
  return { run: async (argv) => (await import('./cliProgram')).buildCli(io).run(argv) };
}
