import { describe, expect, it } from 'vitest';
import { sedPrintScriptProblem } from './sedPrintScript.ts';

describe('sedPrintScriptProblem', () => {
  it.each([
    '1,80p',
    '$p',
    '/^AC_INIT/,/^$/p',
    '1~2p',
    '2,+3p',
    '0,/x/p',
    '/a\\/b/Ip',
    '5q',
    '5Q 1',
    '/x/!d',
    '=',
    's/^V=//p',
    's/a/b/g2',
    '1p;3p\n$=',
  ])('allows %j', (script) => expect(sedPrintScriptProblem(script)).toBeUndefined());

  it.each([
    ['e touch x', /"e"/],
    ['1e id', /"e"/],
    ['s/x/id/e', /runs a command/],
    ['s/x/y/w out', /writes a file/],
    ['s/x/y/gw out', /writes a file/],
    ['/x/w out', /"w"/],
    ['1p;W out', /"W"/],
    ['r /etc/passwd', /"r"/],
    ['1{p}', /"\{"/],
    ['s|x|id|e', /delimiter/],
    ['\\%x%p', /"\\\\"/],
    ['s/x/y', /unterminated/],
    ['1p x', /unexpected/],
  ])('refuses %j', (script, why) => expect(sedPrintScriptProblem(script)).toMatch(why));
});
