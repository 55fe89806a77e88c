import { describe, expect, it } from 'vitest';
import { SourceTree } from '../SourceTree.ts';
import { python } from './python.ts';

describe('python detector', () => {
  it('reads the PEP 517 backend, falls back to setup.py', () => {
    const pyproject = '[build-system]\nrequires = ["hatchling"]\nbuild-backend = "hatchling.build"\n';
    expect(python.detect(SourceTree.fromFiles({ 'pyproject.toml': pyproject }), '')).toMatchObject({
      confidence: 0.75,
      details: { backend: 'hatchling.build' },
    });
    expect(
      python.detect(SourceTree.fromFiles({ 'setup.py': 'from setuptools import setup' }), '')?.confidence,
    ).toBe(0.65);
    expect(python.detect(SourceTree.fromFiles({ 'pyproject.toml': '[tool.black]\n' }), '')).toBeNull();
  });
});
