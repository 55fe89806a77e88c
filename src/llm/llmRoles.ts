/** The jobs rvport gives an LLM; each maps to its own model and prompt budget. */
export const LLM_ROLES = ['planner', 'scout', 'fixer', 'summarizer', 'curator', 'optimizer'] as const;

export type LlmRole = (typeof LLM_ROLES)[number];

export function isLlmRole(value: unknown): value is LlmRole {
  return typeof value === 'string' && (LLM_ROLES as readonly string[]).includes(value);
}

/** Callers such as the engine's AgentNode pass free-form role names; anything unknown plans like the planner. */
export function toLlmRole(value: string | undefined): LlmRole {
  return isLlmRole(value) ? value : 'planner';
}
