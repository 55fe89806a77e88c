/**
 * The prepare command that points cargo's crates.io at a directory registry inside the sandbox
 * (Debian's `/usr/share/cargo/registry`, or the crates rvport fetched and checked), written to
 * `$CARGO_HOME/config.toml` in the sandbox, never into the tree; `offline` also turns cargo's
 * network off there. `name` and `directory` are rvport's own constants, never a package's text.
 */
export function cargoSourceReplacement(name: string, directory: string, offline = false): string {
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a shell expansion, for the sandbox's shell
  const home = '"${CARGO_HOME:-$HOME/.cargo}"';
  const config = [
    '[source.crates-io]',
    `replace-with = "${name}"`,
    '',
    `[source.${name}]`,
    `directory = "${directory}"`,
    '',
    ...(offline ? ['[net]', 'offline = true', ''] : []),
  ].join('\\n');
  return `mkdir -p ${home} && printf '${config}' > ${home}/config.toml`;
}
