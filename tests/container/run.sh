#!/usr/bin/env bash
# The container tests (Dockerfile and compose.yaml with Debian's podman; tests/container/*.container.ts),
# apart from `npm test` because a first build takes minutes (~4 min for the base root, ~5 for the image on
# 2 busy cores, ~3 after a code change; cached under tests/.cache/container and in podman's store). Installs podman,
# podman-compose, runc and mmdebstrap as root when missing; the tests skip, saying why, where podman cannot
# run containers. Prints the closing line "N passed, N failed".
set -euo pipefail
cd "$(dirname "$0")/../.."

missing=()
for tool in podman podman-compose runc mmdebstrap; do command -v "$tool" >/dev/null 2>&1 || missing+=("$tool"); done
if [[ ${#missing[@]} -gt 0 ]]; then
  if [[ "$(id -u)" == 0 ]]; then
    echo "installing ${missing[*]} (apt-get)"
    { DEBIAN_FRONTEND=noninteractive apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"; } >/tmp/container-setup.log 2>&1 \
      || { cat /tmp/container-setup.log >&2; echo "error: could not install ${missing[*]}" >&2; exit 1; }
  else
    echo "the container tests need ${missing[*]}: sudo apt-get install -y ${missing[*]}" >&2
  fi
fi
bun tests/run.ts ./tests/container/image.container.ts ./tests/container/compose.container.ts
