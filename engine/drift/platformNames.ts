import { runInNewContext } from 'node:vm';

/**
 * Names the JavaScript platform defines: the language's globals, read from a fresh V8 context (so
 * the list follows the runtime instead of a copy going stale, and a host's own globals never leak
 * in), Node's documented globals, and the browser globals docs mention most. "If `WeakRef` and
 * `FinalizationRegistry` are available in the runtime" speaks of the platform, not of the project:
 * such a name is no claim about the code unless the project defines it itself.
 */
const HOST_GLOBALS = [
  // Node (https://nodejs.org/api/globals.html)
  'process',
  'Buffer',
  'console',
  'global',
  'require',
  'module',
  'setTimeout',
  'setInterval',
  'setImmediate',
  'clearTimeout',
  'clearInterval',
  'clearImmediate',
  'queueMicrotask',
  'structuredClone',
  'fetch',
  'Headers',
  'Request',
  'Response',
  'FormData',
  'URL',
  'URLSearchParams',
  'AbortController',
  'AbortSignal',
  'TextEncoder',
  'TextDecoder',
  'EventTarget',
  'Event',
  'Blob',
  'BroadcastChannel',
  'MessageChannel',
  'MessagePort',
  'WebSocket',
  'performance',
  'crypto',
  'atob',
  'btoa',
  // Browsers
  'window',
  'document',
  'navigator',
  'localStorage',
  'sessionStorage',
  'location',
  'XMLHttpRequest',
  'HTMLElement',
  'IntersectionObserver',
  'MutationObserver',
  'requestAnimationFrame',
  // JSX examples use React's namespace without importing it (`const App: React.FC = ...`).
  'React',
  'ReactDOM',
  // A CommonJS module's own scope, and the folder npm installs into.
  '__dirname',
  '__filename',
  'exports',
  'node_modules',
];

/**
 * TypeScript's built-in types, which exist in no runtime: "`() => IterableIterator<string>`" in an
 * API reference names the language's type, and a project that stops writing it removed nothing.
 * (https://www.typescriptlang.org/docs/handbook/utility-types.html and lib.es*.d.ts.)
 */
const TYPESCRIPT_TYPES = [
  'Partial',
  'Required',
  'Readonly',
  'Record',
  'Pick',
  'Omit',
  'Exclude',
  'Extract',
  'NonNullable',
  'Parameters',
  'ConstructorParameters',
  'ReturnType',
  'InstanceType',
  'Awaited',
  'ThisParameterType',
  'OmitThisParameter',
  'ThisType',
  'NoInfer',
  'Uppercase',
  'Lowercase',
  'Capitalize',
  'Uncapitalize',
  'PropertyKey',
  'PromiseLike',
  'ArrayLike',
  'ReadonlyArray',
  'ReadonlyMap',
  'ReadonlySet',
  'Iterable',
  'Iterator',
  'IterableIterator',
  'IteratorResult',
  'AsyncIterable',
  'AsyncIterator',
  'AsyncIterableIterator',
  'Generator',
  'AsyncGenerator',
  'TemplateStringsArray',
  'NodeJS',
];

let platform: Set<string> | undefined;

function platformNames(): Set<string> {
  platform ??= new Set([
    ...(runInNewContext('Object.getOwnPropertyNames(globalThis)') as string[]),
    ...HOST_GLOBALS,
    ...TYPESCRIPT_TYPES,
  ]);
  return platform;
}

/** True when a dotted subject starts at a platform global (`WeakRef`, `process.env`, `Buffer.from`). */
export function isPlatformName(subject: string): boolean {
  const head = subject.split('.')[0] ?? subject;
  return platformNames().has(head);
}
