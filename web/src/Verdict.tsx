import type { PortVerdict } from '../../src/serve/ServeViews.ts';
import { VERDICT_LABELS } from './format.ts';

export function Verdict({ verdict }: { verdict: PortVerdict }) {
  return <span class={`badge v-${verdict}`}>{VERDICT_LABELS[verdict] ?? verdict}</span>;
}
