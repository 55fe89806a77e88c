import { evaluateHost, type HostCheck, type HostFacts, probeHost } from '../sandbox/index.ts';
import { type DoctorCheck, failed, passed } from './DoctorCheck.ts';

/** The sandbox's host requirements (commands, binfmt_misc, overlayfs, namespaces, ids) as doctor lines. */
export function evaluateHostConcern(facts: HostFacts): DoctorCheck[] {
  return evaluateHost(facts).map(toDoctorCheck);
}

export function toDoctorCheck(check: HostCheck): DoctorCheck {
  if (check.ok) return passed(check.id, check.detail);
  const fix = check.aptPackage ? `apt-get install -y ${check.aptPackage}` : check.fixCommand;
  return failed(check.id, check.detail, fix);
}

export const gatherHostFacts = (env: NodeJS.ProcessEnv): Promise<HostFacts> => probeHost(env);
