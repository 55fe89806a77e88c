/**
 * `--allow-private-addresses` of port, analyze, replay, batch and worker: for a user who ports
 * from their own LAN server. Its own module so the commands share it without loading each other.
 */
export const ALLOW_PRIVATE_ADDRESSES_HELP =
  "let the source's fetches (its URL, .gitmodules, a tarball's redirects) reach loopback, LAN and reserved addresses";
