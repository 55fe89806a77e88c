import { describe, expect, it } from 'vitest';
import { recipeEntrySchema } from '../../recipes/RecipeEntry.ts';
import { portState } from '../testing/portStateFixture.ts';
import { toRecipeEntry } from './toRecipeEntry.ts';

describe('toRecipeEntry: the mode evidence', () => {
  it('records the mode and what it stood on, and entries from before it still read', () => {
    const state = portState();
    state.options = {
      ...state.options,
      mode: 'native-userland',
      modeEvidence: 'per-build',
      modeReason: 'no proof; built on its own evidence',
    };
    state.userlandEvidence = {
      kind: 'per-build',
      layer: 'evidence-1',
      samplePerMille: 20,
      invocations: 900,
      machine: 1,
      machineChecked: 1,
      sampled: 18,
      skipped: 0,
      differences: [],
      unreplayable: [],
      census: [],
      malformed: 0,
      accepted: true,
      reason: 'all agreed',
    };
    const entry = recipeEntrySchema.parse(toRecipeEntry(state, '# recipe', 'native-1'));
    expect(entry.modeEvidence).toEqual({
      mode: 'native-userland',
      kind: 'per-build',
      reason: 'no proof; built on its own evidence',
      invocations: 900,
      machineChecked: 1,
      sampled: 18,
      layer: 'evidence-1',
    });
    const { modeEvidence: _, ...old } = entry;
    expect(recipeEntrySchema.parse(old).modeEvidence).toBeUndefined();
    expect(toRecipeEntry(portState(), '# recipe', 'accel-1').modeEvidence).toMatchObject({
      mode: 'accelerated',
      kind: 'none',
    });
  });
});
