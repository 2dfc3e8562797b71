/**
 * A BM25F index (Robertson, Zaragoza & Taylor 2004) over documents with named fields: a term's
 * frequencies in the fields are normalised by each field's length, weighted and summed into one
 * pseudo-frequency before the saturation, so a word in a file's path or in a symbol's name counts
 * more than the same word in its body without a field's matches adding up past saturation.
 */
export const CODE_FIELDS = ['path', 'names', 'signatures', 'docs', 'body'] as const;
export type CodeField = (typeof CODE_FIELDS)[number];
const FIELD_COUNT = CODE_FIELDS.length;

export interface FieldWeights {
  /** Saturation. */
  k1: number;
  /** Per field: its weight, and its length normalisation b (0 none, 1 full). */
  weight: Record<CodeField, number>;
  b: Record<CodeField, number>;
}

export type FieldTerms = Partial<Record<CodeField, readonly string[]>>;

/** Per matched document: its score and the share of it each field brought. */
export interface FieldScore {
  doc: number;
  score: number;
  fields: Partial<Record<CodeField, number>>;
}

export class FieldIndex {
  /**
   * term -> flat postings: doc, then its frequency in each field. Built as arrays, then packed
   * into Int32Arrays by `pack` (half the memory: a repository's text is indexed here).
   */
  private readonly postings = new Map<string, number[] | Int32Array>();
  private readonly lengths: number[] = [];
  private docs = 0;
  private averages: number[] | undefined;

  /** Adds the next document (ids count from 0); returns its id. */
  add(fields: FieldTerms): number {
    const doc = this.docs++;
    this.averages = undefined;
    const counts = new Map<string, number[]>();
    CODE_FIELDS.forEach((field, f) => {
      const terms = fields[field] ?? [];
      this.lengths[doc * FIELD_COUNT + f] = terms.length;
      for (const term of terms) {
        let tf = counts.get(term);
        if (!tf) counts.set(term, (tf = new Array<number>(FIELD_COUNT).fill(0)));
        tf[f]!++;
      }
    });
    for (const [term, tf] of counts) {
      let list = this.postings.get(term);
      if (!list) this.postings.set(term, (list = []));
      if (list instanceof Int32Array) throw new Error('FieldIndex: add after pack');
      list.push(doc, ...tf);
    }
    return doc;
  }

  /** Packs the postings once every document is added; `add` is refused after. */
  pack(): void {
    for (const [term, list] of this.postings)
      if (!(list instanceof Int32Array)) this.postings.set(term, Int32Array.from(list));
  }

  get size(): number {
    return this.docs;
  }

  /** Documents containing a term, in any field. */
  documentFrequency(term: string): number {
    return (this.postings.get(term)?.length ?? 0) / (FIELD_COUNT + 1);
  }

  /**
   * Scores every document matching a query term. `terms` maps a term to its query weight; `idf`
   * gives each term's inverse document frequency (the caller picks the collection it is counted
   * over, so symbols can share their files' statistics).
   */
  search(
    terms: ReadonlyMap<string, number>,
    params: FieldWeights,
    idf: (term: string) => number,
  ): FieldScore[] {
    const average = this.averageLengths();
    const scores = new Map<number, FieldScore>();
    const weights = CODE_FIELDS.map((field) => params.weight[field]);
    const bs = CODE_FIELDS.map((field) => params.b[field]);
    for (const [term, queryWeight] of terms) {
      const list = this.postings.get(term);
      if (!list) continue;
      const termIdf = idf(term) * queryWeight;
      if (termIdf <= 0) continue;
      for (let p = 0; p < list.length; p += FIELD_COUNT + 1) {
        const doc = list[p]!;
        let pseudo = 0;
        const parts: number[] = [];
        for (let f = 0; f < FIELD_COUNT; f++) {
          const tf = list[p + 1 + f]!;
          if (tf === 0 || weights[f]! === 0) {
            parts.push(0);
            continue;
          }
          const norm = 1 - bs[f]! + (bs[f]! * this.lengths[doc * FIELD_COUNT + f]!) / (average[f]! || 1);
          const part = (weights[f]! * tf) / norm;
          parts.push(part);
          pseudo += part;
        }
        if (pseudo === 0) continue;
        const gain = (termIdf * pseudo) / (params.k1 + pseudo);
        let score = scores.get(doc);
        if (!score) scores.set(doc, (score = { doc, score: 0, fields: {} }));
        score.score += gain;
        CODE_FIELDS.forEach((field, f) => {
          if (parts[f]! > 0) score.fields[field] = (score.fields[field] ?? 0) + (gain * parts[f]!) / pseudo;
        });
      }
    }
    return [...scores.values()];
  }

  private averageLengths(): number[] {
    if (this.averages) return this.averages;
    const sums = new Array<number>(FIELD_COUNT).fill(0);
    for (let doc = 0; doc < this.docs; doc++)
      for (let f = 0; f < FIELD_COUNT; f++) sums[f]! += this.lengths[doc * FIELD_COUNT + f]!;
    this.averages = sums.map((sum) => sum / Math.max(1, this.docs));
    return this.averages;
  }
}
