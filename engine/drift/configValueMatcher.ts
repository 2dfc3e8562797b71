import type { ExtractedClaim } from './claimTypes';

type Partial = Omit<ExtractedClaim, 'negated'>;

/*
 * Config values stated with the file that holds them: "tsconfig has strict: true", "the port is
 * 3000 in config.yaml", "`server.port` is set to 8080 in `config/app.toml`". Only a sentence that
 * names a config file gives a value claim: without the file there is nothing to read it from.
 */

/** A config file as prose names it: a path with a config extension, `.env`, or bare `tsconfig`. */
const CONFIG_FILE_RE =
  /(?<![\w./-])`?((?:[\w.-]+\/)*(?:[\w.-]*\.(?:json|jsonc|json5|ya?ml|toml)|\.env(?:\.[\w-]+)?)|tsconfig)`?(?![\w/(-])/g;
const KEY = String.raw`[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*`;
const VALUE = String.raw`true|false|null|-?\d+(?:\.\d+)?|"[^"\n]{0,80}"|'[^'\n]{0,80}'|[A-Za-z][\w.-]{0,60}`;
/** `strict: true`, `port = 3000`, `"strict": true` (a key and its value written as in the file). */
const ASSIGNMENT_RE = new RegExp(
  String.raw`(?<![\w.-])([\`"']?)(${KEY})\1\s*[:=]\s*(\`?)(${VALUE})\3(?![\w.-]*[\w])`,
  'g',
);
/** "the port is 3000", "`server.port` is set to 8080", "target defaults to ES2022". */
const PROSE_RE = new RegExp(
  String.raw`(?<![\w.-])(\`?)(${KEY})\1(?:\s+(?:setting|option|key|value|field))?\s+(?:is\s+set\s+to|is|=|set\s+to|defaults\s+to)\s+(\`?)(${VALUE})\3(?![\w.-]*[\w])`,
  'g',
);
const CONSTANT_RE = /^[A-Z0-9][\w.-]*$/;
const ENV_KEY_RE = /^[A-Z][A-Z0-9_]*$/;
const LITERAL_VALUE_RE = /^(?:true|false|null|-?\d+(?:\.\d+)?|"[^"]*"|'[^']*')$/;
const SENTENCE_RE = /[^.!?\n]+(?:[.!?](?!\s|$)[^.!?\n]*)*/g;
const STOP_KEYS = new Set(['it', 'this', 'that', 'there', 'which', 'what', 'file', 'config', 'value']);
/** Words that go on a sentence, never a value: "`fileName` is the name option of package.json". */
const STOP_VALUES = new Set(
  'the a an not no now also only just still then used one all any some each its their your our this that which what where how when'.split(
    ' ',
  ),
);

/** Cheap test first: most memories name no config file at all. */
const CONFIG_FILE_CUE_RE = /\.(?:json|jsonc|json5|ya?ml|toml)\b|\.env\b|tsconfig/;

export function matchConfigValues(text: string, out: Partial[]): void {
  if (!CONFIG_FILE_CUE_RE.test(text)) return;
  SENTENCE_RE.lastIndex = 0;
  for (let s = SENTENCE_RE.exec(text); s !== null; s = SENTENCE_RE.exec(text)) {
    const sentence = s[0];
    const file = configFileIn(sentence);
    if (!file) continue;
    const taken: Array<[number, number]> = [];
    for (const [re, prose] of [
      [ASSIGNMENT_RE, false],
      [PROSE_RE, true],
    ] as const) {
      re.lastIndex = 0;
      for (let m = re.exec(sentence); m !== null; m = re.exec(sentence)) {
        const [, keyQuote, key, valueQuote, value] = m as unknown as [string, string, string, string, string];
        const keyStart = s.index + m.index + keyQuote.length;
        const valueStart = s.index + m.index + m[0].length - valueQuote.length - value.length;
        if (STOP_KEYS.has(key.toLowerCase()) || overlapsFile(keyStart, file, s.index)) continue;
        if (valueQuote === '' && STOP_VALUES.has(value.toLowerCase())) continue;
        // A bare lower-case word is too loose ("the build is fast", code's `data = await`): the key
        // or value must be quoted, the value a literal or a constant (`ES2022`), or the key an
        // environment variable's (`LOG_LEVEL=debug`).
        if (keyQuote === '' && valueQuote === '' && !LITERAL_VALUE_RE.test(value)) {
          if (prose || !(CONSTANT_RE.test(value) || ENV_KEY_RE.test(key))) continue;
        }
        if (taken.some(([a, b]) => keyStart < b && a < valueStart + value.length)) continue;
        taken.push([keyStart, valueStart + value.length]);
        out.push({
          kind: 'config',
          subject: key,
          span: [keyStart, keyStart + key.length],
          file: file.path,
          fileSpan: [s.index + file.start, s.index + file.start + file.written.length],
          value: unquote(value),
          valueSpan: [valueStart, valueStart + value.length],
        });
      }
    }
  }
}

function configFileIn(sentence: string): { path: string; written: string; start: number } | undefined {
  CONFIG_FILE_RE.lastIndex = 0;
  const m = CONFIG_FILE_RE.exec(sentence);
  if (!m) return undefined;
  const written = m[1] as string;
  const start = m.index + m[0].indexOf(written);
  return { path: written === 'tsconfig' ? 'tsconfig.json' : written, written, start };
}

function overlapsFile(at: number, file: { written: string; start: number }, offset: number): boolean {
  const start = offset + file.start;
  return at >= start && at < start + file.written.length;
}

function unquote(value: string): string {
  return /^(["']).*\1$/.test(value) ? value.slice(1, -1) : value;
}
