import {
  recipeCommands,
  recipeEnvLines,
  recipeInstallLine,
  recipeVerdictLine,
  successfulSteps,
} from '../outputs/renderRecipe.ts';
import type { PortState } from '../state/PortState.ts';

/**
 * What any recipe of this port must say word for word to stay reproducible and honest: the
 * verdict line, the prerequisites' install command, the environment, and every command of the
 * deterministic recipe's phases (the plan that worked, as build.sh runs it).
 */
export function requiredRecipeLines(state: PortState): string[] {
  return [
    recipeVerdictLine(state),
    recipeInstallLine(state),
    ...recipeEnvLines(state),
    ...(successfulSteps(state.executed).length ? recipeCommands(state) : []),
  ];
}

/** The required lines a recipe text leaves out (empty: it keeps them all). */
export function missingRecipeLines(text: string, required: readonly string[]): string[] {
  return [...new Set(required)].filter((line) => !text.includes(line));
}
