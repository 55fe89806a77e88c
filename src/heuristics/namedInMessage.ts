import type { NamedDependency } from './installNamedDependency.ts';

const NAME = '[A-Za-z0-9_][\\w+.-]*';

/**
 * What a build system's error message names in words: headers, `-lfoo`, a program (`cannot find
 * protoc`), and as bare words a `libfoo` or the subject of `X not found` / `X is required`.
 */
export function namedInMessage(message: string): { named: NamedDependency[]; words: NamedDependency[] } {
  const named: NamedDependency[] = [];
  for (const m of message.matchAll(/([\w+./-]+\.(?:h|hh|hpp|hxx))\b/g))
    named.push({ kind: 'header', name: m[1] as string });
  for (const m of message.matchAll(new RegExp(`(?:^|\\s)-l(${NAME})`, 'g')))
    named.push({ kind: 'library', name: m[1] as string });
  const program = new RegExp(
    `(?:cannot|can't|could not|couldn't|unable to) find (?:the )?(?:program |tool )?['"\`‘]?(${NAME})['"’]?(?: (?:program|in (?:the |your )?\\$?PATH))?\\.?\\s*$|['"\`‘]?(${NAME})['"’]? (?:must|needs to) be (?:installed|in (?:the |your )?\\$?PATH)`,
    'i',
  ).exec(message);
  const tool = program?.[1] ?? program?.[2];
  if (tool && !tool.startsWith('-')) named.push({ kind: 'command', name: tool });
  const words: NamedDependency[] = [];
  for (const m of message.matchAll(new RegExp(`(?:^|[\\s'"\`(])(lib(?!rar(?:y|ies)\\b)${NAME})`, 'g')))
    words.push({ kind: 'word', name: (m[1] as string).replace(/[.,;:]+$/, '') });
  const notFound = new RegExp(
    `(?:^|\\s)['"\`‘]?(${NAME})['"’]?(?: (?:library|libraries|headers?|package|development files))? (?:was |is |are |could )?(?:not (?:be )?found|(?:required|needed)\\b)`,
    'i',
  ).exec(message);
  if (notFound?.[1]) words.push({ kind: 'word', name: notFound[1].replace(/[.,;:]+$/, '') });
  // `Could not find INDI include directory`, `Unable to find the FOO library`
  const couldNotFind = new RegExp(
    `(?:could not|couldn't|cannot|can't|unable to) (?:find|locate) (?:the )?['"\`‘]?(${NAME})['"’]? (?:include|library|libraries|headers?|development|package|installation)`,
    'i',
  ).exec(message);
  if (couldNotFind?.[1]) words.push({ kind: 'word', name: couldNotFind[1].replace(/[.,;:]+$/, '') });
  return { named, words };
}
