import type { SecretDetector } from './secretCandidate';

const BEGIN = '-----BEGIN (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY(?: BLOCK)?-----';
const END = '-----END (?:[A-Z0-9]{1,16} ){0,3}PRIVATE KEY(?: BLOCK)?-----';
/**
 * The base64 body of a block whose END line is missing (a truncated paste), `\n` escapes included;
 * chunks of 16+ characters, so that prose after the body is not swallowed.
 */
const BODY_RE = /(?:(?:\s|\\[nr]){0,8}[A-Za-z0-9+/=]{16,1024})*/y;

/**
 * PEM private keys, BEGIN line to END line inclusive. END lines are found once and paired in
 * order, never searched for again from each BEGIN, so a text of many BEGIN lines stays linear.
 */
function blockDetector(hint: string, begin: RegExp, end: RegExp): SecretDetector {
  return (text, out) => {
    if (!text.includes(hint)) return;
    const ends = [...text.matchAll(end)].map((m) => m.index + m[0].length);
    let next = 0;
    begin.lastIndex = 0;
    for (let m = begin.exec(text); m !== null; m = begin.exec(text)) {
      const headerEnd = m.index + m[0].length;
      while (next < ends.length && (ends[next] as number) <= headerEnd) next++;
      let blockEnd = ends[next];
      if (blockEnd === undefined) {
        BODY_RE.lastIndex = headerEnd;
        blockEnd = headerEnd + (BODY_RE.exec(text)?.[0].length ?? 0);
      }
      out.push({ kind: 'private-key', start: m.index, end: blockEnd });
      begin.lastIndex = blockEnd;
    }
  };
}

export const detectPrivateKeys = blockDetector('PRIVATE KEY', new RegExp(BEGIN, 'g'), new RegExp(END, 'g'));

/** The same blocks in lower-cased text: run only on text without an upper-case letter (secrets.ts). */
export const detectLowerCasedPrivateKeys = blockDetector(
  'private key',
  new RegExp(BEGIN, 'gi'),
  new RegExp(END, 'gi'),
);
