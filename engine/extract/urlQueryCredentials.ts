import type { SecretDetector } from './secretCandidate';
import { isPlaceholder } from './secretPatterns';

/**
 * A parameter of a URL's query named for a credential: `?key=...`, `?api-key=...`,
 * `?access_token=...`, and the signature of a signed URL (`&sig=...` of an Azure SAS or a Power
 * Automate trigger): whoever holds the URL holds the credential. The value goes, the name stays.
 * Short values (`?key=value`) are ordinary parameters far more often than secrets.
 */
const QUERY_PARAM_RE = /[?&]([A-Za-z][\w.-]{0,63})=([^&\s"'`<>#\\]{8,4096})/g;
/** Cheap gate: a query parameter's name ending in a credential's word, then `=`. */
const QUERY_HINT_RE = /[?&][\w.-]{0,63}(?:sig|signature|token|key|secret|password|passwd|pwd)=/i;
const CREDENTIAL_PARAM_WORDS = new Set(['sig', 'signature', 'secret', 'password', 'passwd', 'pwd']);
const CAMEL_BOUNDARY_RE = /([a-z0-9])([A-Z])/g;

/** Whether a parameter's name says it carries a credential: by its last word (`api-key`, `accessToken`, `tokenkey`). */
function namesCredential(name: string): boolean {
  const words = name
    .replace(CAMEL_BOUNDARY_RE, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/);
  const last = words[words.length - 1] ?? '';
  // `tokenkey`, `apikey`, `authtoken`: one word ending in key or token; not `monkey`, `turkey`.
  return CREDENTIAL_PARAM_WORDS.has(last) || /^(?:key|\w*(?:token|api|auth|access)key|\w*token)$/.test(last);
}

export const detectQueryCredentials: SecretDetector = (text, out) => {
  if (!QUERY_HINT_RE.test(text)) return;
  QUERY_PARAM_RE.lastIndex = 0;
  for (let m = QUERY_PARAM_RE.exec(text); m !== null; m = QUERY_PARAM_RE.exec(text)) {
    const [, name, value] = m as unknown as [string, string, string];
    if (!namesCredential(name) || isPlaceholder(value) || /^(?:\$|\{\{)/.test(value)) continue;
    const start = m.index + m[0].length - value.length;
    out.push({ kind: 'url-credential', start, end: start + value.length });
    // The next parameter starts at the `&` that ended this value.
    QUERY_PARAM_RE.lastIndex = start + value.length;
  }
};
