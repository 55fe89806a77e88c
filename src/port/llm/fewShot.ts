/**
 * Few-shot examples from verified ports (SPEC 7: retrieved by relevance and sandbox): the one
 * place nodes import them from. Saving is `toFewShotExample` + `fewShotPath`; finding and
 * rendering are the scout's and the fixer's.
 */
export {
  type FewShotExample,
  FewShotExampleSchema,
  fewShotPath,
  toFewShotExample,
} from './fewShotExample.ts';
export { DEFAULT_FEW_SHOT_LIMIT, type FewShotQuery, findFewShotExamples } from './findFewShotExamples.ts';
export { renderFewShot } from './renderFewShot.ts';
