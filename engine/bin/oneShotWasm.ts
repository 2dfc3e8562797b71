/**
 * Which CLI commands compile sql.js with V8's baseline compiler (Liftoff) only. By default V8
 * also recompiles SQLite's hot functions with TurboFan in background threads; a command that
 * answers in a few hundred ms exits before most of that code is used, and the compiling was half
 * the CPU of `engram recall` at 10k memories (500 -> 260 ms, medians of 8 alternated runs; 40%
 * of its instructions under callgrind). Commands that run long or host others (serve, scan,
 * import, drift, consolidation, capture...) keep TurboFan: only this list of short ones changes.
 */
const SHORT_COMMANDS = new Set([
  'recall',
  'context',
  'get',
  'list',
  'history',
  'as-of',
  'entities',
  'related',
  'stats',
  'symbols',
  'files',
  'remember',
  'edit',
  'annotate',
  'invalidate',
  'forget',
  'restore',
  'pin',
  'unpin',
]);

/** The program's options that take a value (engine/bin/cliProgram.ts), to find the command after them. */
const VALUE_OPTIONS = new Set(['--db', '--workspace', '--agent', '--session', '--embedding', '--team-url']);

/** True when the command in `argv` (the arguments after the script) is one of the short ones. */
export function baselineWasmOnly(argv: readonly string[]): boolean {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return false;
    if (arg.startsWith('-')) {
      if (VALUE_OPTIONS.has(arg)) i++;
      continue;
    }
    return SHORT_COMMANDS.has(arg);
  }
  return false;
}
