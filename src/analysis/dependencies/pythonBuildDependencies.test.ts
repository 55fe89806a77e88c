import { describe, expect, it } from 'vitest';
import { pythonBuildDependencies } from './pythonBuildDependencies.ts';

const extract = (path: string, text: string) =>
  pythonBuildDependencies.extract({ path, text, lines: text.split('\n') });

describe('SCons and waf dependencies', () => {
  it('reads waf check_cfg and check_cc', () => {
    const text =
      "conf.check_cfg(package='alsa', atleast_version='1.0.18', args='--cflags --libs', mandatory=False)\nconf.check_cc(header_name='samplerate.h', lib='samplerate')\n";
    expect(extract('wscript', text).map((d) => `${d.kind}:${d.name}:${d.required}`)).toEqual([
      'pkg-config:alsa:false',
      'header:samplerate.h:true',
      'library:samplerate:true',
    ]);
  });

  it('reads SCons CheckLib, pkg-config calls and *-config scripts (serf: apr)', () => {
    const text =
      "conf.CheckLib('crypto')\nenv.ParseConfig('pkg-config --cflags --libs zlib')\napr = os.path.join(apr, 'bin', 'apr-1-config')\n";
    expect(extract('SConstruct', text).map((d) => `${d.kind}:${d.name}`)).toEqual([
      'library:crypto',
      'pkg-config:zlib',
      'program:apr-1-config',
    ]);
  });
});
