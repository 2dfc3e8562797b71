import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';

/**
 * A server started in its own process group (setsid), so stopping it stops everything it started
 * (the VS Code server forks extension hosts and file watchers; a plain kill leaves them orphaned).
 */
export class ProcessGroup {
  private constructor(
    readonly child: ChildProcess,
    private readonly exited: Promise<void>,
  ) {}

  static start(
    command: string,
    args: string[],
    options: { env: NodeJS.ProcessEnv; cwd: string; logFile: string },
  ): ProcessGroup {
    const log = createWriteStream(options.logFile);
    const child = spawn('setsid', [command, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    child.stdout?.pipe(log);
    child.stderr?.pipe(log);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    return new ProcessGroup(child, exited);
  }

  /** SIGTERM to the whole group, then SIGKILL if it is still there when the group leader has not exited. */
  async stop(): Promise<void> {
    const pid = this.child.pid;
    if (pid === undefined || this.child.exitCode !== null) return;
    const signalGroup = (signal: NodeJS.Signals) => {
      try {
        process.kill(-pid, signal);
      } catch {
        // Already gone.
      }
    };
    signalGroup('SIGTERM');
    const stopped = await Promise.race([this.exited.then(() => true), delay(5000).then(() => false)]);
    if (!stopped) signalGroup('SIGKILL');
    await this.exited;
    // Children that outlived the leader (extension hosts) belong to the same group.
    signalGroup('SIGKILL');
  }
}

export function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
