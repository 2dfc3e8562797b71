import os from 'node:os';
import path from 'node:path';
import { buildCli } from './cliProgram';

/**
 * `engram` command-line entry. The only place (with the MCP entry) that reads the process
 * environment and knows where the bundled wasm assets are; the engine gets them as parameters.
 */
/** The build copies sql.js's wasm beside the bundle (dist/). */
function sqlWasmPath(): string {
  return path.join(__dirname, 'sql-wasm.wasm');
}

const cli = buildCli({
  cwd: process.cwd(),
  env: process.env,
  home: os.homedir(),
  platform: process.platform,
  sqlWasmPath: sqlWasmPath(),
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
});

void cli.run(process.argv.slice(2)).then((code) => {
  process.exitCode = code;
});
