import { createMention } from './mention';
import type { Mention } from './mention';
import { pathKey } from './pathMatcher';
import type { ScanContext } from './scanContext';
import { trimEndChars } from './textTrim';
import { forEachMatch } from './regexScan';

/** npm scoped names anywhere: `@types/node`, `@modelcontextprotocol/sdk`. */
const SCOPED_RE = /(?<![\w@/.-])@[a-z0-9][a-z0-9._-]{0,213}\/[a-z0-9][a-z0-9._-]{0,213}/g;
/** ES and CommonJS module specifiers (and Go's `import "fmt"`). */
const JS_SPECIFIER_RE =
  /(?<![\w$.])(?:from|import|require[ \t]*\(|import[ \t]*\()[ \t]*(['"])([^'"\s]{1,256})\1/g;
const PY_FROM_RE = /^[ \t]*from[ \t]+([A-Za-z_]\w{0,127}(?:\.\w{1,127}){0,16})[ \t]+import[ \t]/gm;
const PY_IMPORT_RE =
  /^[ \t]*import[ \t]+([A-Za-z_]\w{0,127}(?:\.\w{1,127}){0,16})(?=[ \t]*(?:$|,|;|#|as[ \t]))/gm;
const BARE_SPECIFIER_RE = /^(?:node:)?(?:@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(?:\/[\w.@-]+)*$/;

export function matchPackageReferences(ctx: ScanContext, out: Mention[]): void {
  const { text } = ctx;
  if (text.includes('@')) {
    forEachMatch(SCOPED_RE, text, (m) => {
      const name = trimEndChars(m[0], '.-');
      out.push(createMention(m.index, m.index + name.length, 'package', name));
    });
  }
  if (text.includes('from') || text.includes('import') || text.includes('require')) {
    forEachMatch(JS_SPECIFIER_RE, text, (m) => {
      const spec = m[2] as string;
      const start = m.index + m[0].length - 1 - spec.length;
      const mention = specifierMention(spec, start);
      if (mention !== undefined) out.push(mention);
    });
    for (const [re, keyword] of [
      [PY_FROM_RE, 'from'],
      [PY_IMPORT_RE, 'import'],
    ] as const) {
      forEachMatch(re, text, (m) => {
        const module = m[1] as string;
        const start = m.index + m[0].indexOf(module, m[0].indexOf(keyword) + keyword.length);
        const top = module.split('.')[0] as string;
        out.push(createMention(start, start + module.length, 'package', top));
      });
    }
  }
}

/**
 * A relative specifier names a module file; a bare one a package, named by its root so that
 * `lodash/fp` and `@scope/pkg/sub` count as `lodash` and `@scope/pkg`.
 */
function specifierMention(spec: string, start: number): Mention | undefined {
  const end = start + spec.length;
  if (/^\.{1,2}\//.test(spec) || spec.startsWith('/'))
    return createMention(start, end, 'file', spec, pathKey(spec));
  if (!BARE_SPECIFIER_RE.test(spec)) return undefined;
  return createMention(start, end, 'package', packageRootOf(spec));
}

/** The package a bare specifier names: `lodash/fp` -> `lodash`, `@scope/pkg/sub` -> `@scope/pkg`. */
export function packageRootOf(spec: string): string {
  const parts = spec.split('/');
  return spec.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}
