/** Whether a proposed command may run, and why not. */
export type CommandVerdict = { allowed: true } | { allowed: false; reason: string };
