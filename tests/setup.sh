#!/usr/bin/env bash
# What `npm test` needs on a fresh Debian machine with Node.js and npm: Bun 1.4.x (from npm), the
# project's dependencies, and Debian's redis-server and chromium (the Redis and browser tests start
# them) and prometheus (for promtool: the alert rules' checks and unit tests). Installs what is missing when run as root; otherwise stops at once with the exact command.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v bun >/dev/null 2>&1 || [[ "$(bun --version)" != 1.4.* ]]; then
  npm install -g bun@1.4.5
fi
bun install --frozen-lockfile

missing=()
command -v redis-server >/dev/null 2>&1 || missing+=(redis-server)
[[ -x /usr/bin/chromium ]] || missing+=(chromium)
command -v promtool >/dev/null 2>&1 || missing+=(prometheus)
if [[ ${#missing[@]} -eq 0 ]]; then exit 0; fi

if [[ "$(id -u)" != 0 ]]; then
  echo "error: the tests need ${missing[*]}; install with: sudo apt-get update && sudo apt-get install -y ${missing[*]}" >&2
  exit 1
fi
echo "installing ${missing[*]} (apt-get)"
log="$(mktemp)"
# A temporary policy-rc.d keeps the packages from starting system services (the tests start their own).
policy=/usr/sbin/policy-rc.d
added_policy=""
if [[ ! -e "$policy" ]]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod +x "$policy" && added_policy=1
fi
status=0
{ DEBIAN_FRONTEND=noninteractive apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; } >"$log" 2>&1 || status=$?
if [[ -n "$added_policy" ]]; then rm -f "$policy"; fi
if [[ $status -ne 0 ]] || ! command -v redis-server >/dev/null 2>&1 || [[ ! -x /usr/bin/chromium ]] || ! command -v promtool >/dev/null 2>&1; then
  cat "$log" >&2
  echo "error: could not install ${missing[*]} (apt-get install -y ${missing[*]})" >&2
  exit 1
fi
rm -f "$log"
