import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rvportHome } from '../../src/config/rvportHome.ts';
import { DEFAULT_PRICE_TABLE } from '../../src/llm/index.ts';
import { ensureCorpus } from '../helpers/corpus.ts';
import { runCli } from '../helpers/rvportCli.ts';
import { FakeLlmServer, type FakeReply, type RecordedRequest } from '../llm/fakeLlmServer.ts';

// Issue 6, done-when 2 and 4: arj is a package the deterministic path cannot finish (its own
// strnlen clashes with glibc's; its post-processor looks for an integrity record that GCC drops
// as an unused static). A fake OpenAI-compatible server on 127.0.0.1 plays the fixer: it asks to
// inspect (one command is one the guard must refuse), then returns the two real fixes, one after
// the other, as loose diffs. The port must end verified with both patches in patches/, and the
// token and cost totals must be exactly what the server reported.
const MINUTES = 60_000;
const MODEL = 'gpt-5.4-mini';

const STRNLEN_FIX = `--- a/fardata.c
+++ b/fardata.c
@@ -192,4 +192,4 @@ int msg_sprintf(char *str, FMSG *fmt, ...)
 
-static int strnlen(const char FAR *s, int count)
+static int arj_strnlen(const char FAR *s, int count)
 {
@@ -571,3 +571,3 @@ int vcprintf(int ccode, FMSG *fmt, va_list args)
 #endif
-    len=strnlen(s, precision);
+    len=arj_strnlen(s, precision);
     if(!(flags&LEFT))
`;
// No a/ b/ prefixes, as models often write them.
const INTEGRITY_FIX = `--- integr.c
+++ integr.c
@@ -7,3 +7,3 @@
 
-static const char intergrity_identifier[] = {
+const char intergrity_identifier[] = {
 \t0xB0, 0x03, 0xB0, 0x02, 0xB0, 0x03,
`;
const REFUSED_INSPECTION = 'mount -t proc proc /mnt';

let home: string;
let work: string;
let corpus: string;
const server = new FakeLlmServer();

const schemaOf = (r: RecordedRequest) =>
  ((r.body.response_format as { json_schema?: { name?: string } } | undefined)?.json_schema?.name ??
    '') as string;
const promptOf = (r: RecordedRequest) =>
  (r.body.messages as { content: unknown }[])
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))
    .join('\n');
const json = (value: unknown, input: number, output: number): FakeReply => ({
  text: JSON.stringify(value),
  usage: { input, output },
});

function fixer(request: RecordedRequest): FakeReply | undefined {
  const prompt = promptOf(request);
  // The line that decided the error's category (GCC quotes names with ‘…’ in a UTF-8 locale).
  const deciding = /^Deciding line: (.*)$/m.exec(prompt)?.[1] ?? '';
  const strnlen = /conflicting types for .strnlen./.test(deciding);
  switch (schemaOf(request)) {
    case 'inspection':
      return json(
        {
          reasoning: 'see the declaration and the integrity record',
          commands: strnlen
            ? ['grep -rn "strnlen" /build/src/fardata.c', REFUSED_INSPECTION]
            : ['cat /build/src/integr.c'],
        },
        1200,
        60,
      );
    case 'fix':
      if (strnlen)
        return json(
          {
            diagnosis:
              "fardata.c defines its own static strnlen, which conflicts with glibc's declaration in string.h.",
            summary: 'rename the private strnlen',
            patch: STRNLEN_FIX,
            commands: [],
            packages: [],
            env: [],
          },
          2100,
          240,
        );
      if (prompt.includes('Patch not found'))
        return json(
          {
            diagnosis:
              'postproc looks for the integrity record in the binary; GCC removes the unused static array, so it is not found.',
            summary: 'keep the integrity record',
            patch: INTEGRITY_FIX,
            commands: [],
            packages: [],
            env: [],
          },
          2300,
          200,
        );
      return { status: 400, message: 'the fake fixer knows no fix for this' };
    default:
      // The other roles are not scripted here: each takes its deterministic fallback.
      return { status: 400, message: `the fake server does not answer ${schemaOf(request) || 'this'}` };
  }
}

beforeAll(async () => {
  corpus = await ensureCorpus(['arj']);
  home = mkdtempSync(join(tmpdir(), 'rvport-llmfix-home-'));
  work = mkdtempSync(join(tmpdir(), 'rvport-llmfix-work-'));
  const shared = rvportHome();
  mkdirSync(join(shared, 'sandbox'), { recursive: true });
  symlinkSync(join(shared, 'sandbox'), join(home, 'sandbox'));
  if (existsSync(join(shared, 'debian-contents')))
    symlinkSync(join(shared, 'debian-contents'), join(home, 'debian-contents'));
  await server.respondWith(fixer).start();
}, 30 * MINUTES);

afterAll(async () => {
  await server.close();
  rmSync(home, { recursive: true, force: true });
  rmSync(work, { recursive: true, force: true });
});

describe('the LLM fixer on a real package', () => {
  it(
    'ports arj to a verified build with the fixer’s two patches, refusing the command that leaves the sandbox',
    async () => {
      const run = await runCli(['port', join(corpus, 'arj'), '--out', 'out', '--json'], {
        cwd: work,
        env: {
          RVPORT_HOME: home,
          LLM_PROVIDER: 'openai',
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: server.openAiBaseUrl,
          RVPORT_LLM_MODEL: MODEL,
        },
      });
      expect(run.code, run.stderr).toBe(0);
      const result = JSON.parse(run.stdout);
      expect(result.result).toBe('verified');

      const out = join(work, 'out', 'arj');
      const patches = readdirSync(join(out, 'patches')).sort();
      expect(patches).toEqual([
        '0001-rename-the-private-strnlen.patch',
        '0002-keep-the-integrity-record.patch',
      ]);
      const first = readFileSync(join(out, 'patches', patches[0] as string), 'utf8');
      expect(first).toContain('diff --git a/fardata.c b/fardata.c');
      expect(first).toContain('+    len=arj_strnlen(s, precision);');
      expect(readFileSync(join(out, 'patches', patches[1] as string), 'utf8')).toContain(
        'diff --git a/integr.c b/integr.c',
      );
      expect(readFileSync(join(out, 'recipe.md'), 'utf8')).toContain(
        'patches/0001-rename-the-private-strnlen.patch',
      );

      const state = JSON.parse(readFileSync(join(out, 'state.json'), 'utf8'));
      const llmFixes = state.fixAttempts.filter((f: { source: string }) => f.source === 'llm');
      expect(llmFixes.map((f: { name: string; outcome: string }) => [f.name, f.outcome])).toEqual([
        ['rename the private strnlen', 'applied'],
        ['keep the integrity record', 'applied'],
      ]);
      expect(state.refusedCommands.map((r: { command: string }) => r.command)).toContain(REFUSED_INSPECTION);
      expect(state.audit.some((a: { detail?: string }) => a.detail?.includes('inspected: grep -rn'))).toBe(
        true,
      );

      // Done-when 4: totals equal the server's usage numbers, and the price table's price of them.
      const answered = server.served.filter((r): r is Extract<FakeReply, { text: string }> => 'text' in r);
      const input = answered.reduce((n, r) => n + (r.usage?.input ?? 0), 0);
      const output = answered.reduce((n, r) => n + (r.usage?.output ?? 0), 0);
      expect(answered.length).toBe(4);
      expect(state.llm).toMatchObject({
        inputTokens: input,
        outputTokens: output,
        calls: server.requests.length,
      });
      const price = DEFAULT_PRICE_TABLE[MODEL];
      if (!price) throw new Error(`${MODEL} is not in the price table`);
      expect(state.llm.costUsd).toBeCloseTo((input * price.input + output * price.output) / 1e6, 12);
      const calls = readFileSync(join(out, 'llm-calls.jsonl'), 'utf8').trim().split('\n');
      expect(calls).toHaveLength(server.requests.length);
      const report = readFileSync(join(out, 'report.md'), 'utf8');
      expect(report).toContain(`$${state.llm.costUsd.toFixed(4)}`);
      expect(report).toContain(`${input + output} tokens`);
    },
    40 * MINUTES,
  );
});
