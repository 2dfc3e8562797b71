/**
 * English stopwords dropped from the lexical index and queries. Deliberately short: words like
 * "not", "no", "never", "before" and "after" carry meaning in memories ("never force-push") and
 * in temporal questions, so they stay.
 */
export const STOPWORDS = new Set(
  (
    'a an and are as at be been being but by can could did do does doing for from had has have having he her ' +
    'here hers him his how i if in into is it its itself just me my myself of on or our ours ourselves she ' +
    'should so than that the their theirs them themselves then there these they this those through to too ' +
    'us was we were what when where which while who whom why will with would you your yours yourself ' +
    'about also am any each few more most other some such own same s t d ll m o re ve y'
  ).split(' '),
);
