import path from 'node:path';
import { Command } from 'commander';
import type { MethodParams } from '../api/methods';
import { Engram } from '../engram';
import type { OpenEngramOptions } from '../engram';
import { stderrLogger } from '../host';
import { resolveDatabasePath, resolveWorkspaceRoot, userDataDirectory } from '../paths';
import { EMBEDDING_SETTING_HELP, parseEmbeddingSetting } from '../embedding/embeddingSetting';
import type { UseLiteAssets } from '../embedding/useLiteAssets';
import type { WorkerScripts } from '../process/workerScripts';
import { DurableDatabase } from '../store/durableDatabase';
import { loadSqlJs } from '../store/sqlite';
import { lossLine, recoverLines } from './recoverOutput';
import { KINDS, LAYERS, STATUSES } from '../memory/types';
import { negativeInput } from '../memory/negativeKnowledge';
import type { Memory, RememberResult } from '../memory/types';
import { absolute, parseNumber } from './cliArguments';
import type { CliCall, Invoke } from './cliArguments';
import { namingOption } from './optionErrors';
import { registerCodeCommands } from './codeCommands';
import { registerDriftCommands } from './driftCommands';
import { registerCaptureCommands } from './captureCommands';
import { registerTeamCommands } from './teamCommands';
import { registerTeamServerCommands, teamTarget } from './teamServerCommands';
import { routeToTeam, withStaleMark } from './teamInvoke';
import type { PrintResult } from './teamInvoke';
import { queueDirectory } from '../teamClient/writeQueue';
import { defaultTokensFile } from '../teamServer/teamTokens';
import { registerHookCommands } from './hookCommands';
import { registerWhyCommand } from './whyCommand';
import { registerReadCommands } from './readCommands';
import { registerLifecycleCommands } from './lifecycleCommands';
import { registerSkillsCommand } from './skillsCommand';
import { memoryDetail, memoryLine, rememberLine } from './cliOutput';
import { registerServeCommand } from './serveCommand';
import { EXIT, reportError, usageLine } from './cliErrors';
import { registerTransferCommands } from './transferCommands';
import { registerMcpConfigCommand } from './mcpConfigCommand';

export interface CliEnvironment {
  cwd: string;
  env: NodeJS.ProcessEnv;
  home: string;
  platform: NodeJS.Platform;
  sqlWasmPath: string;
  /** The worker scripts (workerScriptsIn(dist)). @default defaultWorkerScripts() */
  workers?: WorkerScripts;
  /** The tree-sitter grammars and queries (dist/grammars beside the bundle). */
  grammarsDirectory: string;
  /** Where the default embedding model's files are (beside the bundle, or in node_modules). */
  useLiteAssets: () => UseLiteAssets;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
}

interface GlobalOptions {
  db?: string;
  workspace?: string;
  user?: boolean;
  json?: boolean;
  agent?: string;
  session?: string;
  embedding?: string;
  teamUrl?: string;
}

/** Builds the `engram` command. `run` resolves to the exit code; nothing calls process.exit here. */
export function buildCli(io: CliEnvironment): { run(argv: string[]): Promise<number> } {
  let exitCode: number = EXIT.ok;
  const program = new Command('engram')
    .description('Engram: durable, truthful project memory for coding agents')
    .option('--db <file>', 'database file (default: <workspace>/.engram/memory.db; env ENGRAM_DB)')
    .option('--workspace <dir>', 'workspace whose database to use (default: found from the current folder)')
    .option('--user', 'use the user-level database for cross-project memories')
    .option('--json', 'print one JSON document')
    .option('--agent <name>', 'who is acting (recorded on writes)')
    .option('--session <id>', 'session id (working memory, injection ledger)')
    .option('--embedding <model>', `embedding model: ${EMBEDDING_SETTING_HELP} (env ENGRAM_EMBEDDING)`)
    .option(
      '--team-url <url>',
      'send memory calls to this team server (env ENGRAM_TEAM_URL; token in ENGRAM_TEAM_TOKEN)',
    )
    .exitOverride()
    .configureOutput({
      writeOut: io.stdout,
      writeErr: io.stderr,
      outputError: (text, write) => write(usageLine(text)),
    });

  // The command being run, so a method's error can name the option the user wrote.
  let running: Command | undefined;
  program.hook('preAction', (_program, command) => {
    running = command;
  });

  const globals = () => program.opts<GlobalOptions>();
  const actor = () => ({ agent: globals().agent, session: globals().session });
  const choice = (workspace?: string) => ({
    ...globals(),
    ...(workspace === undefined ? {} : { workspace }),
    cwd: io.cwd,
    env: io.env,
    home: io.home,
    platform: io.platform,
  });
  const databasePath = () => resolveDatabasePath(choice());
  /** The workspace an agent's configuration is written for (mcp-config, hooks); --user has none. */
  const configWorkspace = () => resolveWorkspaceRoot({ ...choice(), user: false }) ?? io.cwd;

  /** The engine of one CLI command on `file`; `extra`: the workspace to scan, the model. */
  const openCliEngine = (file: string, extra: Partial<OpenEngramOptions> = {}) =>
    Engram.open({
      dbPath: file,
      sqlWasmPath: io.sqlWasmPath,
      ...(io.workers ? { workers: io.workers } : {}),
      clientName: 'cli',
      logger: stderrLogger('warn'),
      // One call, then exit: a recall searches SQLite's FTS instead of building an index for it.
      lexicalCopy: 'never',
      // Every command opens the store and replays its journal: keep that short (closeSnapshot.ts).
      snapshot: { closeJournalBytes: 'by-size' },
      ...extra,
    });

  const invoke: Invoke = async (method, params, render, workspace, steps) => {
    const options = globals();
    const dbPath = resolveDatabasePath(choice(workspace));
    const print: PrintResult = (result, stale) => {
      const rendered = render(result);
      const text = typeof rendered === 'string' ? rendered : rendered.text;
      if (typeof rendered !== 'string') exitCode = rendered.exit;
      // An empty rendering prints nothing (a watch round that found nothing new).
      if (options.json || text !== '')
        io.stdout(`${options.json ? JSON.stringify(withStaleMark(result, stale), null, 2) : text}\n`);
    };
    const call = { teamUrl: options.teamUrl, dbPath, method, params: { ...params, actor: actor() } };
    if (await routeToTeam(call, { ...io, json: options.json === true }, print, (file) => openCliEngine(file)))
      return;
    // No team server, or offline with no replica: answered from this clone's database (its git
    // team memories and its own).
    const root = resolveWorkspaceRoot(choice(workspace));
    const engram = await openCliEngine(dbPath, {
      ...(root ? { code: { root, grammarsDirectory: io.grammarsDirectory } } : {}),
      embedding: parseEmbeddingSetting(options.embedding ?? io.env['ENGRAM_EMBEDDING'] ?? 'off', {
        useLiteAssets: io.useLiteAssets,
        modelDir: path.join(userDataDirectory(io.env, io.home, io.platform), 'models'),
        env: io.env,
      }),
    });
    try {
      // Values as typed: the method's schema checks them (CliParams in cliArguments.ts).
      const checked = { ...params, actor: actor() } as MethodParams<typeof method>;
      const call: CliCall = (m, p) => engram.call(m, { ...p, actor: actor() });
      const result = await (steps ? steps(call) : engram.call(method, checked)).catch((error: unknown) =>
        Promise.reject(namingOption(error, running)),
      );
      print(result);
    } finally {
      await engram.close();
    }
  };

  const memoryResult = (r: unknown) => memoryLine(r as Memory);
  const idCommand = (name: 'forget' | 'restore' | 'pin' | 'unpin', description: string, verb: string) =>
    program
      .command(name)
      .argument('<id>', 'memory id (or a unique prefix of 6+ characters)')
      .description(description)
      .action((id: string) => invoke(name, { id }, (r) => `${verb}: ${memoryResult(r)}`));

  program
    .command('remember')
    .argument('<text...>', 'what to remember')
    .description('store a memory')
    .option('--layer <layer>', `memory layer: ${LAYERS.join(', ')}`)
    .option('--kind <kind>', `memory kind: ${KINDS.join(', ')}`)
    .option('--tags <tags>', 'comma-separated tags')
    .option('--importance <n>', 'importance from 0 to 1', parseNumber)
    .option('--context <text>', 'the source text the memory came from')
    .option('--conflict-key <key>', 'supersede the active memory with this key')
    .option('--critical', 'always include first in context')
    .option('--pin', 'pin the memory')
    .option('--valid-from <time>', 'when it became true (ISO 8601)')
    .option('--private', 'visible to this agent only (you see it without --agent)')
    .option('--negative', 'something that does not exist or must not be done (kind negative, semantic)')
    .action((words: string[], o: Record<string, unknown>) => {
      const input = {
        content: words.join(' '),
        layer: o['layer'] as string | undefined,
        kind: o['kind'] as string | undefined,
      };
      return invoke(
        'remember',
        {
          ...(o['negative'] === true ? negativeInput(input) : input),
          tags: typeof o['tags'] === 'string' ? o['tags'].split(',') : undefined,
          importance: o['importance'],
          context: o['context'],
          conflictKey: o['conflictKey'],
          critical: o['critical'] === true,
          pinned: o['pin'] === true,
          validFrom: o['validFrom'],
          scope: o['private'] ? 'private' : undefined,
        },
        (r) => rememberLine(r as RememberResult),
      );
    });

  program
    .command('get')
    .argument('<id>', 'memory id or unique prefix')
    .description('show one memory')
    .action((id: string) =>
      invoke('get', { id }, (r) => {
        const { memory, annotations } = r as { memory: Memory; annotations: [] };
        return memoryDetail(memory, annotations);
      }),
    );

  program
    .command('list')
    .description('list memories, newest first')
    .option('--layer <layer>', LAYERS.join(', '))
    .option('--kind <kind>', KINDS.join(', '))
    .option('--status <status>', `${[...STATUSES, 'all'].join(', ')} (default active)`)
    .option('--tag <tag>')
    .option('--limit <n>', 'page size', parseNumber, 50)
    .option('--offset <n>', 'rows to skip', parseNumber)
    .action((o: Record<string, unknown>) =>
      invoke(
        'list',
        {
          layer: o['layer'],
          kind: o['kind'],
          status: o['status'],
          tag: o['tag'],
          limit: o['limit'],
          offset: o['offset'],
        },
        (r) => {
          const page = r as { items: Memory[]; total: number; next: number | null };
          const lines = page.items.map(memoryLine);
          lines.push(
            `${page.items.length} of ${page.total}${page.next === null ? '' : ` (next: --offset ${page.next})`}`,
          );
          return lines.join('\n');
        },
      ),
    );

  program
    .command('edit')
    .argument('<id>')
    .argument('<text...>', 'the new content')
    .description('replace the content (a new version; the old one is kept)')
    .action((id: string, words: string[]) =>
      invoke('edit', { id, changes: { content: words.join(' ') } }, (r) => `edited: ${memoryResult(r)}`),
    );

  program
    .command('annotate')
    .argument('<id>')
    .argument('<text...>')
    .description('add a timestamped note without changing the memory')
    .action((id: string, words: string[]) =>
      invoke(
        'annotate',
        { id, text: words.join(' ') },
        (r) => `annotated ${(r as { memoryId: string }).memoryId}`,
      ),
    );

  program
    .command('invalidate')
    .argument('<id>')
    .requiredOption('--reason <text>', 'why it is no longer true')
    .option('--valid-to <time>', 'when it stopped being true (default now)')
    .description('mark a memory as no longer true')
    .action((id: string, o: { reason: string; validTo?: string }) =>
      invoke(
        'invalidate',
        { id, reason: o.reason, validTo: o.validTo },
        (r) => `invalidated: ${memoryResult(r)}`,
      ),
    );

  idCommand('forget', 'hide a memory (recoverable with restore)', 'forgotten');
  idCommand('restore', 'bring back a forgotten or archived memory', 'restored');
  idCommand('pin', 'pin a memory', 'pinned');
  idCommand('unpin', 'unpin a memory', 'unpinned');

  registerReadCommands(program, invoke);

  registerTransferCommands(program, invoke, io.cwd);

  program
    .command('stats')
    .description('counts and database state')
    .action(() => invoke('stats', {}, (r) => JSON.stringify(r, null, 2)));

  registerServeCommand(program, globals, io);

  registerMcpConfigCommand(program, {
    workspace: configWorkspace,
    // The build puts dist/mcp.js beside dist/sql-wasm.wasm.
    bridgeScript: path.join(path.dirname(io.sqlWasmPath), 'mcp.js'),
    home: io.home,
    platform: io.platform,
    env: io.env,
    stdout: io.stdout,
  });

  registerCodeCommands(program, invoke, io.cwd);
  registerDriftCommands(program, invoke);
  registerWhyCommand(program, invoke, io.cwd);
  registerLifecycleCommands(program, invoke, io.env);
  registerSkillsCommand(program, invoke);
  registerCaptureCommands(program, invoke, { env: io.env, home: io.home, now: Date.now });
  registerTeamServerCommands(registerTeamCommands(program, invoke, Date.now), {
    tokensFile: (given) =>
      given === undefined ? defaultTokensFile(databasePath()) : absolute(io.cwd, given),
    target: () => teamTarget(globals().teamUrl, io.env),
    queueDirectory: () => queueDirectory(databasePath()),
    json: () => globals().json === true,
    stdout: io.stdout,
    now: Date.now,
  });
  registerHookCommands(program, {
    workspace: configWorkspace,
    // The build puts dist/cli.js beside dist/sql-wasm.wasm.
    cliScript: path.join(path.dirname(io.sqlWasmPath), 'cli.js'),
    stdout: io.stdout,
  });

  program
    .command('recover')
    .description('rebuild a damaged database from its snapshots, journal and damaged journal copies')
    .option('--accept-loss', 'rebuild even when some writes cannot be recovered, keeping all the others')
    .action(async (o: { acceptLoss?: boolean }) => {
      const report = await DurableDatabase.recover({
        path: databasePath(),
        sql: await loadSqlJs(io.sqlWasmPath),
        acceptLoss: o.acceptLoss === true,
      });
      io.stdout(`${globals().json ? JSON.stringify(report) : recoverLines(report)}\n`);
      if (report.lost.length > 0 || report.skipped.length > 0) io.stderr(`engram: ${lossLine(report)}\n`);
    });

  return {
    async run(argv: string[]): Promise<number> {
      try {
        await program.parseAsync(argv, { from: 'user' });
      } catch (error) {
        exitCode = reportError(error, io, globals().json === true);
      }
      return exitCode;
    },
  };
}
