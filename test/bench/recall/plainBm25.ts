/**
 * The plain BM25 baseline computed in the same run: lowercase alphanumeric tokens, English
 * stopwords, k1 1.2, b 0.75, an in-memory inverted index. Deliberately independent of the engine's
 * tokenizer and index so it measures what the engine adds.
 */
const STOP = new Set(
  'a about above after again against all am an and any are as at be because been before being below between both but by can did do does doing down during each few for from further had has have having he her here hers herself him himself his how i if in into is it its itself just me more most my myself no nor not of off on once only or other our ours ourselves out over own same she should so some such than that the their theirs them themselves then there these they this those through to too under until up very was we were what when where which while who whom why will with you your yours yourself yourselves'.split(
    ' ',
  ),
);

export function plainTokens(text: string): string[] {
  return (text.toLowerCase().match(/[a-z0-9]+/g) ?? []).filter((t) => !STOP.has(t));
}

export class PlainBm25 {
  private readonly postings = new Map<string, Array<[number, number]>>();
  private readonly lengths: number[] = [];
  private readonly ids: string[] = [];
  private average = 0;

  constructor(
    docs: Array<{ id: string; text: string }>,
    private readonly k1 = 1.2,
    private readonly b = 0.75,
  ) {
    docs.forEach((doc, index) => {
      const tokens = plainTokens(doc.text);
      this.ids.push(doc.id);
      this.lengths.push(tokens.length);
      const tf = new Map<string, number>();
      for (const t of tokens) tf.set(t, (tf.get(t) ?? 0) + 1);
      for (const [term, count] of tf) {
        let list = this.postings.get(term);
        if (!list) this.postings.set(term, (list = []));
        list.push([index, count]);
      }
    });
    this.average = this.lengths.reduce((a, b) => a + b, 0) / Math.max(1, this.lengths.length);
  }

  search(query: string, k: number): string[] {
    const scores = new Map<number, number>();
    const n = this.ids.length;
    for (const term of new Set(plainTokens(query))) {
      const list = this.postings.get(term);
      if (!list) continue;
      const idf = Math.log(1 + (n - list.length + 0.5) / (list.length + 0.5));
      for (const [doc, tf] of list) {
        const norm = this.k1 * (1 - this.b + (this.b * this.lengths[doc]!) / this.average);
        scores.set(doc, (scores.get(doc) ?? 0) + (idf * tf * (this.k1 + 1)) / (tf + norm));
      }
    }
    return [...scores]
      .sort((a, b) => b[1] - a[1] || a[0] - b[0])
      .slice(0, k)
      .map(([doc]) => this.ids[doc]!);
  }
}
