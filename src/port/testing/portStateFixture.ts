import {
  createPortState,
  type ErrorRecord,
  type PackageAnalysis,
  type PortState,
} from '../state/PortState.ts';
import type { ErrorCategory } from '../state/vocabulary.ts';
import { errorSignature } from '../steps/errorSignature.ts';

/** A port state for tests, with a few overrides. */
export function portState(overrides: Partial<PortState> = {}): PortState {
  return {
    ...createPortState(
      { spec: 'debian:zlib', name: 'zlib' },
      { maxAttempts: 5, costCapUsd: 1, offline: true, mode: 'accelerated', optimize: false, force: false },
    ),
    ...overrides,
  };
}

export function anError(category: ErrorCategory, message = `${category.toLowerCase()} error`): ErrorRecord {
  return {
    at: '2026-01-01T00:00:00.000Z',
    node: 'build',
    category,
    severity: 'high',
    message,
    signature: errorSignature(message),
  };
}

export const someAnalysis: PackageAnalysis = {
  buildSystem: 'cmake',
  confidence: 0.9,
  dir: '.',
  needsCustomPlan: false,
  llmGrounded: false,
  dependencies: [],
  expectedArtifacts: [],
  notes: [],
};
