/**
 * Splits output text that arrives in arbitrary chunks into whole lines for the logger, keeping a
 * partial last line until its newline comes.
 */
export function lineSplitter(log: (line: string) => void): (text: string) => void {
  let buffered = '';
  return (text) => {
    buffered += text;
    const lines = buffered.split('\n');
    buffered = lines.pop() ?? '';
    for (const line of lines) if (line.trim() !== '') log(line);
  };
}
