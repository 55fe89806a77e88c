import { describe, expect, it } from 'vitest';
import { evaluateMirror, releaseUrl } from './mirrorCheck.ts';

const MIRROR = 'http://mirror.invalid/debian';

describe('evaluateMirror', () => {
  it('passes a mirror that serves the Release file', () => {
    expect(evaluateMirror({ mirror: MIRROR, suite: 'trixie', answer: { status: 200 } })[0]?.status).toBe(
      'ok',
    );
  });

  it('fails without a mirror, saying how to name one', () => {
    const [check] = evaluateMirror({ mirror: null, suite: 'trixie' });
    expect(check?.status).toBe('fail');
    expect(check?.fix).toMatch(/^export RVPORT_DEBIAN_MIRROR=/);
  });

  it('fails a mirror that answers 404 or not at all, with the URL to try', () => {
    const [notFound] = evaluateMirror({ mirror: MIRROR, suite: 'trixie', answer: { status: 404 } });
    expect(notFound?.detail).toBe(
      `Debian mirror ${MIRROR} does not serve ${MIRROR}/dists/trixie/Release (HTTP 404)`,
    );
    expect(notFound?.fix).toContain(`curl -I ${MIRROR}/dists/trixie/Release`);
    const [down] = evaluateMirror({ mirror: MIRROR, suite: 'trixie', answer: { error: 'ECONNREFUSED' } });
    expect(down?.detail).toContain('(ECONNREFUSED)');
  });

  it('builds the Release URL without a double slash', () => {
    expect(releaseUrl(`${MIRROR}/`, 'bookworm')).toBe(`${MIRROR}/dists/bookworm/Release`);
  });
});
