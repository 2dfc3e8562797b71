/**
 * The two sides of a file git left with conflict markers: every line outside the markers belongs
 * to both, the lines between `<<<<<<<` and `=======` to ours, those between `=======` and
 * `>>>>>>>` to theirs (a diff3 base section, `|||||||` up to `=======`, to neither). Undefined
 * when the file holds no complete conflict: then it is read as it is.
 */
export interface ConflictSides {
  ours: string;
  theirs: string;
}

type Section = 'both' | 'ours' | 'base' | 'theirs';

export function conflictSides(text: string): ConflictSides | undefined {
  const ours: string[] = [];
  const theirs: string[] = [];
  let section: Section = 'both';
  let conflicts = 0;
  for (const line of text.replace(/\r\n/g, '\n').split('\n')) {
    const next = markerAfter(section, line);
    if (next !== undefined) {
      if (next === 'both') conflicts++;
      section = next;
      continue;
    }
    if (section !== 'theirs' && section !== 'base') ours.push(line);
    if (section !== 'ours' && section !== 'base') theirs.push(line);
  }
  if (conflicts === 0 || section !== 'both') return undefined;
  return { ours: ours.join('\n'), theirs: theirs.join('\n') };
}

/** The section a marker line starts, or undefined for a line that is no marker here. */
function markerAfter(section: Section, line: string): Section | undefined {
  if (section === 'both' && line.startsWith('<<<<<<<')) return 'ours';
  if (section === 'ours' && line.startsWith('|||||||')) return 'base';
  if ((section === 'ours' || section === 'base') && line.startsWith('=======')) return 'theirs';
  if (section === 'theirs' && line.startsWith('>>>>>>>')) return 'both';
  return undefined;
}
