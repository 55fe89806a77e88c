import { shellQuote } from '../process/shellQuote.ts';

/**
 * D. J. Bernstein's build style (qmail, daemontools, fastforward and their kin): the compile
 * command is the first line of `conf-cc` and CFLAGS is never read, so a compiler flag goes
 * there. The command adds it once however often the tree is prepared.
 */
export function confCcFlag(flag: string): string {
  const sedFlag = flag.replace(/[\\/&]/g, '\\$&');
  return `grep -q -F -e ${shellQuote(` ${flag}`)} conf-cc || sed -i ${shellQuote(`1s/$/ ${sedFlag}/`)} conf-cc`;
}
