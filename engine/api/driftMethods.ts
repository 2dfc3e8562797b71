/** The drift checker's methods (claims, verification against the code index and git, repair). */
export const DRIFT_METHODS = {} as const;
