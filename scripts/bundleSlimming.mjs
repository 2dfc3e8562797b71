// esbuild plugins that keep code no process runs out of the Node bundles: every CLI command and
// MCP bridge is a new process that parses all of dist/engineCore.js before it answers (~20 ms of
// CPU per MB on the machine of docs/benchmarks.md).
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');

/**
 * zod's 49 locales: zod installs English at load and the engine never switches, yet zod's
 * `export * as locales` put all of them (310 KB) in each bundle. Its locale index becomes English alone.
 */
export const englishZodLocale = {
  name: 'englishZodLocale',
  setup(build) {
    build.onResolve({ filter: /\/locales\/index\.js$/ }, (args) =>
      args.importer.includes(`${path.sep}node_modules${path.sep}zod${path.sep}`)
        ? { path: path.resolve(args.resolveDir, args.path), namespace: 'englishZodLocale' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'englishZodLocale' }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      resolveDir: path.dirname(args.path),
    }));
  },
};

/**
 * One ajv: the MCP SDK and ajv-formats each install their own copy of the same ajv (8.x, 157 KB
 * bundled). ajv-formats extends the SDK's Ajv instance, so its imports of ajv resolve to the SDK's.
 */
export const oneAjv = {
  name: 'oneAjv',
  setup(build) {
    const sdk = path.join(root, 'node_modules', '@modelcontextprotocol', 'sdk');
    const formats = `${path.sep}node_modules${path.sep}ajv-formats${path.sep}`;
    build.onResolve({ filter: /^ajv(\/|$)/ }, async (args) => {
      if (!args.importer.includes(formats) || args.pluginData?.oneAjv) return undefined;
      return build.resolve(args.path, { kind: args.kind, resolveDir: sdk, pluginData: { oneAjv: true } });
    });
  },
};
