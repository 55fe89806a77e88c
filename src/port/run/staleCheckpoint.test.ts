import { describe, expect, it } from 'vitest';
import { PORT_STATE_VERSION } from '../state/PortState.ts';
import { staleCheckpoint } from './staleCheckpoint.ts';

describe('staleCheckpoint', () => {
  it('resumes a checkpoint this rvport wrote, and one from before versions were recorded', () => {
    expect(
      staleCheckpoint({ formatVersion: PORT_STATE_VERSION, rvportVersion: '1.2.0' }, '1.2.0'),
    ).toBeNull();
    expect(staleCheckpoint({ formatVersion: PORT_STATE_VERSION }, '1.2.0')).toBeNull();
  });

  it('starts again over a checkpoint of another rvport or another state format', () => {
    expect(staleCheckpoint({ formatVersion: PORT_STATE_VERSION, rvportVersion: '1.1.0' }, '1.2.0')).toBe(
      'rvport 1.1.0 wrote it (this is 1.2.0)',
    );
    expect(staleCheckpoint({ formatVersion: 0 }, '1.2.0')).toMatch(/format 0/);
    expect(staleCheckpoint(undefined, '1.2.0')).toMatch(/format undefined/);
  });
});
