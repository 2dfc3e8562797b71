import type { ExtractedClaim } from './claimTypes';
import { DURATION_UNITS } from './durations';

type Partial = Omit<ExtractedClaim, 'negated'>;

const NAME = String.raw`[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*`;
/**
 * "`level` defaults to `'info'`", "`retries` (default: `3`)", "`name` default value is `x`", and a
 * literal written bare: "`subdomainOffset` offset to ignore, default to 2".
 */
const NAMED_DEFAULT_RE = new RegExp(
  String.raw`\`(${NAME})\`[^\`.\n]{0,40}?\b(?:(?:defaults?|defaulting)\s+(?:to|is)|default(?:\s+value)?\s*(?:is|:|=))\s*(?:\`([^\`\n]{1,80})\`|(true|false|null|-?\d+(?:\.\d+)?)(?![\w.]))`,
  'gi',
);
/**
 * "`options.useDefaults` is `false` by default", "The `strict` option is set to `true` by default",
 * "By default, `level` is `'info'`": the value written right after the name, nothing between.
 */
const IS_BY_DEFAULT_RE = new RegExp(
  String.raw`\`(${NAME})\`(?:\s+(?:option|setting|property|flag))?\s+is\s+(?:set\s+to\s+)?\`([^\`\n]{1,80})\`\s+by\s+default\b` +
    String.raw`|\bBy\s+default,?\s+\`(${NAME})\`(?:\s+(?:option|setting|property|flag))?\s+is\s+(?:set\s+to\s+)?\`([^\`\n]{1,80})\``,
  'gi',
);
/**
 * "Default: `false`" at the end of an option's list item or section; "(default: `os.EOL`)",
 * "(default false)", "(Default: **localhost**)" in parentheses, where a bare value must be a
 * literal ("(default: level set on parent logger)" states no value); ", default to 2" closing
 * an item; "(`/` by default)", also when a condition follows ("(`false` by default for HTTP").
 */
const BARE_DEFAULT_RE = new RegExp(
  String.raw`\bDefault(?:\s+value)?\s*(?:is|:)\s*\`([^\`\n]{1,80})\`` +
    String.raw`|\(\s*default(?:\s+value)?\s*(?:is\s+|:\s*|\s)\s*(?:\`([^\`\n]{1,80})\`|\*\*([^*\s]{1,40})\*\*|(true|false|null|-?\d+(?:\.\d+)?|'[^'\n]{0,40}'|"[^"\n]{0,40}"))\s*\)` +
    String.raw`|,\s*defaults?\s+to\s+(?:\`([^\`\n]{1,80})\`|(true|false|null|-?\d+(?:\.\d+)?)(?![\w.]))` +
    String.raw`|\(\s*\`([^\`\n]{1,80})\`\s+by\s+default\b` +
    String.raw`|(?:^|[.!]\s+)(?:It\s+)?defaults\s+to\s+\`([^\`\n]{1,80})\``,
  'gi',
);
/**
 * A duration stated as an option's default, in words: "Defaults to 30 seconds.", "The default is
 * 5 minutes", "Default: `5000` ms". Its value is kept with the unit ("30 seconds") so that the
 * check can compare it with a number the code declares in either milliseconds or that unit.
 */
const DURATION_DEFAULT_RE = new RegExp(
  String.raw`\b(?:Defaults?\s+(?:to|is)|default\s+is|Default\s*:)\s+\`?(\d+(?:\.\d+)?)\`?\s*(${DURATION_UNITS})(?![\w-])`,
  'gi',
);
const UNIT_AFTER_RE = new RegExp(String.raw`^\s*(${DURATION_UNITS})(?![\w-])`, 'i');
/**
 * The option a list item or heading documents: "* `censor` (String): ...", "### `level`", and
 * names written in bold, "* __level:__ ..." or "- **level**: ...".
 */
const OPTION_LINE_RE = new RegExp(
  String.raw`^[ \t]*(?:[*+-]|#{1,6}|\d+\.)[ \t]+(?:\`(${NAME})\`|(?:__|\*\*)(${NAME}):?(?:__|\*\*))`,
  'gm',
);
const MAX_ITEM_CHARS = 1200;
/** Types written in backticks after an option's name in API docs. */
const TYPE_NAMES = new Set(['number', 'string', 'boolean', 'object', 'function', 'array', 'integer', 'any']);

/**
 * Default values the text gives options, as config claims marked `isDefault`: checked only
 * against defaults the code declares in its structure (defaultValues.ts), never by a word search.
 * `headingOption` is the option the heading above the memory's block in its document names
 * (headingClaims.ts), for "Default: `'json'`" in a block that names none.
 */
export function matchDefaultValues(text: string, out: Partial[], headingOption?: string): void {
  NAMED_DEFAULT_RE.lastIndex = 0;
  for (let m = NAMED_DEFAULT_RE.exec(text); m !== null; m = NAMED_DEFAULT_RE.exec(text)) {
    // "* **idle** `number` - Default: `5000`": a type, not the option; the item's name is (below).
    if (TYPE_NAMES.has((m[1] as string).toLowerCase())) continue;
    const value = (m[2] ?? m[3]) as string;
    const valueStart = m.index + m[0].length - (m[2] !== undefined ? 1 : 0) - value.length;
    // The claim's span is the value: the name stays the symbol claim it already is.
    const claim = defaultClaim(m[1] as string, [valueStart, valueStart + value.length], value, valueStart);
    out.push(withUnit(text, m.index + m[0].length, claim));
  }
  IS_BY_DEFAULT_RE.lastIndex = 0;
  for (let m = IS_BY_DEFAULT_RE.exec(text); m !== null; m = IS_BY_DEFAULT_RE.exec(text)) {
    const value = (m[2] ?? m[4]) as string;
    // The value is the last backticked text of the match, or of its first half ("By default, ...").
    const valueStart = m.index + m[0].lastIndexOf(`\`${value}\``) + 1;
    out.push(
      defaultClaim((m[1] ?? m[3]) as string, [valueStart, valueStart + value.length], value, valueStart),
    );
  }
  BARE_DEFAULT_RE.lastIndex = 0;
  const named = out.length;
  for (let m = BARE_DEFAULT_RE.exec(text); m !== null; m = BARE_DEFAULT_RE.exec(text)) {
    const option = optionAbove(text, m.index) ?? paragraphOption(text, m.index) ?? headingOption;
    if (!option) continue;
    const value = (m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? m[6] ?? m[7] ?? m[8]) as string;
    const end = m.index + m[0].length;
    // "`maxIpsCount` ..., default to 0" is already the named default it states.
    if (out.slice(0, named).some((c) => c.span[0] < end && m.index < c.span[1])) continue;
    const valueStart = m.index + m[0].lastIndexOf(value);
    // The claim's span is the default itself: one option may document several defaults.
    out.push(withUnit(text, end, defaultClaim(option, [m.index, end], value, valueStart)));
  }
  DURATION_DEFAULT_RE.lastIndex = 0;
  for (let m = DURATION_DEFAULT_RE.exec(text); m !== null; m = DURATION_DEFAULT_RE.exec(text)) {
    const option = optionAbove(text, m.index) ?? headingOption;
    const end = m.index + m[0].length;
    if (!option || out.some((c) => c.isDefault === true && c.span[0] < end && m.index < c.span[1])) continue;
    const amount = m[1] as string;
    const valueStart = m.index + m[0].indexOf(amount);
    out.push({
      kind: 'config',
      subject: option,
      span: [m.index, end],
      value: `${amount} ${(m[2] as string).toLowerCase()}`,
      valueSpan: [valueStart, end],
      isDefault: true,
    });
  }
}

/**
 * The claim with the duration unit written right after its value ("defaults to 30 seconds",
 * "Default: `5000` ms"): "30" alone would be compared with a count of milliseconds.
 */
function withUnit(text: string, end: number, claim: Partial): Partial {
  const unit = UNIT_AFTER_RE.exec(text.slice(end, end + 16));
  if (!unit || claim.value === undefined || !/^\d+(?:\.\d+)?$/.test(claim.value)) return claim;
  const unitEnd = end + unit[0].length;
  return {
    ...claim,
    span: [claim.span[0], Math.max(claim.span[1], unitEnd)],
    value: `${claim.value} ${(unit[1] as string).toLowerCase()}`,
    valueSpan: [claim.valueSpan?.[0] ?? end, unitEnd],
  };
}

function defaultClaim(subject: string, span: [number, number], written: string, at: number): Partial {
  return {
    kind: 'config',
    subject,
    span,
    value: written.trim().replace(/^(['"])(.*)\1$/, '$2'),
    valueSpan: [at, at + written.length],
    isDefault: true,
  };
}

/**
 * The option a paragraph documents when it opens with it: "`options.maxAge` is the number of
 * seconds ... It defaults to `0`." (helmet's middleware docs).
 */
function paragraphOption(text: string, position: number): string | undefined {
  const start = text.lastIndexOf('\n\n', position);
  const paragraph = text.slice(start < 0 ? 0 : start + 2, position);
  if (paragraph.length > MAX_ITEM_CHARS) return undefined;
  return PARAGRAPH_OPTION_RE.exec(paragraph)?.[1];
}

const PARAGRAPH_OPTION_RE = new RegExp(
  String.raw`^\s*\`(${NAME})\`\s+(?:is|are|sets|controls|specifies|determines)\b`,
);

/** The nearest option list item or heading above `position`, within one item's length. */
function optionAbove(text: string, position: number): string | undefined {
  const from = Math.max(0, position - MAX_ITEM_CHARS);
  let found: string | undefined;
  OPTION_LINE_RE.lastIndex = from;
  for (let m = OPTION_LINE_RE.exec(text); m !== null && m.index < position; m = OPTION_LINE_RE.exec(text))
    found = m[1] ?? m[2];
  return found;
}
