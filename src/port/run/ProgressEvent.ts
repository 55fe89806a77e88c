/** What the port tells the terminal while it runs. */
export type ProgressEvent =
  | { type: 'node'; node: string }
  | { type: 'phase'; phase: string; command: string }
  | { type: 'output'; line: string }
  | { type: 'note'; message: string };
