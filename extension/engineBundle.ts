// The engine-facing half of the extension, bundled apart (dist/extensionEngine.js) and loaded by
// EngineConnection after activation: activate() itself only loads the small dist/extension.js.
export { Engram } from '../engine/engram';
export { METHODS, isMethodName } from '../engine/api/methods';
export { engineOptions } from './engineOptions';
