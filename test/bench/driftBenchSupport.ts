import { createRequire } from 'node:module';

const require = createRequire(__filename);

/** The sql.js wasm, found without the test runner's temp-directory helpers. */
export const SQL_WASM_PATH_FOR_BENCH = require.resolve('sql.js/dist/sql-wasm.wasm');
