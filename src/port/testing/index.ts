// The port workflow's testing door: what other rooms' test fixtures use to write port outputs in
// the real format (the dashboard's tests write them with the function a port uses, so the fixtures
// cannot drift from it). Only testing/ folders and tests import it.
export { exitLine } from '../graph/nodes/buildSteps.ts';
export { writePortOutputs } from '../outputs/writePortOutputs.ts';
export type { PortState } from '../state/PortState.ts';
export { anError, portState } from './portStateFixture.ts';
