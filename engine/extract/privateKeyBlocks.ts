import type { SecretDetector } from './secretCandidate';

const BEGIN_RE = /-----BEGIN (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY(?: BLOCK)?-----/g;
const END_RE = /-----END (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY(?: BLOCK)?-----/g;
/**
 * The base64 body of a block whose END line is missing (a truncated paste), `\n` escapes included;
 * chunks of 16+ characters, so that prose after the body is not swallowed.
 */
const BODY_RE = /(?:(?:\s|\\[nr]){0,8}[A-Za-z0-9+/=]{16,1024})*/y;

/**
 * PEM private keys, BEGIN line to END line inclusive. END lines are found once and paired in
 * order, never searched for again from each BEGIN, so a text of many BEGIN lines stays linear.
 */
export const detectPrivateKeys: SecretDetector = (text, out) => {
  if (!text.includes('PRIVATE KEY')) return;
  const ends = [...text.matchAll(END_RE)].map((m) => m.index + m[0].length);
  let next = 0;
  BEGIN_RE.lastIndex = 0;
  for (let m = BEGIN_RE.exec(text); m !== null; m = BEGIN_RE.exec(text)) {
    const headerEnd = m.index + m[0].length;
    while (next < ends.length && (ends[next] as number) <= headerEnd) next++;
    let end = ends[next];
    if (end === undefined) {
      BODY_RE.lastIndex = headerEnd;
      end = headerEnd + (BODY_RE.exec(text)?.[0].length ?? 0);
    }
    out.push({ kind: 'private-key', start: m.index, end });
    BEGIN_RE.lastIndex = end;
  }
};
