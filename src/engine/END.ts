/** The transition target that ends a run. A string, so that it survives JSON checkpoints. */
export const END = '__end__';
export type END = typeof END;
