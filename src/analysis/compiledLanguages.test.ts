import { describe, expect, it } from 'vitest';
import { extraCompiledLanguages } from './compiledLanguages.ts';
import { SourceTree } from './SourceTree.ts';

describe('extraCompiledLanguages', () => {
  it('names Objective-C from the contents of .m files, Objective-C++ and Ada from their names', () => {
    const tree = SourceTree.fromFiles({
      'Source/Person.m': '#import <Foundation/Foundation.h>\n@implementation Person\n@end\n',
      'ui/View.mm': '// Objective-C++\n',
      'bind/io.adb': 'package body Io is\nend Io;\n',
      'main.c': 'int main(void) { return 0; }\n',
    });
    expect(extraCompiledLanguages(tree)).toEqual(['ada', 'objective-c', 'objective-c++']);
  });

  it('does not take MATLAB or Octave scripts for Objective-C', () => {
    const tree = SourceTree.fromFiles({
      'matlab/demo.m': '% a MATLAB demo\nfunction y = demo(x)\n  y = x * 2;\nend\n',
      'src/lib.c': 'int f(void) { return 1; }\n',
    });
    expect(extraCompiledLanguages(tree)).toEqual([]);
  });

  it("does not count another platform's port: macOS, iOS or Windows folders", () => {
    const tree = SourceTree.fromFiles({
      'macosx/coremidi/JackCoreMidiDriver.mm': '// Core MIDI\n',
      'macosx/JackMachThread.mm': '// Mach threads\n',
      'ios/App.m': '#import <UIKit/UIKit.h>\n@implementation App\n@end\n',
      'common/JackClient.cpp': 'int f() { return 1; }\n',
    });
    expect(extraCompiledLanguages(tree)).toEqual([]);
  });
});
