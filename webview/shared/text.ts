/**
 * Memory content and entity names are untrusted. The webviews put them on screen only as text
 * (canvas fillText, textContent, title); the hosts use the same trimming for their titles and
 * messages, so a label reads the same in the panel and around it.
 */

/** One line of at most `max` characters: whitespace and control characters collapsed, an ellipsis if cut. */
export function summaryLine(text: string, max = 120): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f\s]+/g, ' ').trim();
  return flat.length <= max ? flat : `${flat.slice(0, Math.max(0, max - 1))}…`;
}
