#!/usr/bin/env bash
# Builds a local stand-in for the upstream Bun image (oven/bun:<version>, Debian slim + the bun binary)
# from Debian's packages and npm alone, since no image registry is reachable here, and imports it into
# podman as localhost/jobsearch-bun-base:<version>. The Dockerfile's BUN_IMAGE build argument takes it.
#   bash tests/container/base-image.sh          # prints the image name; reuses the cached root tarball
#   bash tests/container/base-image.sh --plain  # only the Debian root imported (runs no container): <image>-debian
# The root (mmdebstrap --variant=minbase of this machine's Debian release, ca-certificates, bun from
# npm's @oven/bun-linux-x64[-baseline] package) is cached as tests/.cache/container/base-<version>.tar.
set -euo pipefail
cd "$(dirname "$0")/../.."

# The Bun version package.json's start script pins (the Dockerfile's default BUN_IMAGE names the same), else this machine's.
version="$(sed -n 's/.*npm install -g bun@\([0-9.]*\).*/\1/p' package.json | head -1)"
version="${version:-$(bun --version)}"
image="localhost/jobsearch-bun-base:$version"
cache="tests/.cache/container"
tarball="$cache/base-$version.tar"
mkdir -p "$cache"

# Already in podman's store (the tarball may be gone: CI runs in a fresh clone on the same machine).
if [[ "${1:-}" == --plain ]] && podman image exists "$image-debian"; then echo "$image-debian"; exit 0; fi
if podman image exists "$image"; then echo "$image"; exit 0; fi

if [[ ! -s "$tarball" ]]; then
  for tool in mmdebstrap podman npm; do
    command -v "$tool" >/dev/null 2>&1 || { echo "error: $tool is missing (apt-get install -y mmdebstrap podman)" >&2; exit 1; }
  done
  # This machine's release and mirror, so the root is made from the same packages apt-get installs here.
  codename="$(. /etc/os-release && echo "$VERSION_CODENAME")"
  mirror="$({ cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null || true; } \
    | sed -nE 's#^(URIs: *|deb +)(https?://[^ ]+/debian)/?( .*)?$#\2#p' | head -1)"
  mirror="${mirror:-http://deb.debian.org/debian}"
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  # The bun binary from npm (the package npm's `bun` installs itself from); baseline without AVX2.
  package="@oven/bun-linux-x64"
  grep -qw avx2 /proc/cpuinfo || package="@oven/bun-linux-x64-baseline"
  (cd "$work" && npm pack --silent "$package@$version" >/dev/null)
  mkdir -p "$work/bun" && tar -xzf "$work"/*.tgz -C "$work/bun"
  install -D -m 0755 "$work/bun/package/bin/bun" "$work/overlay/usr/local/bin/bun"
  ln -s bun "$work/overlay/usr/local/bin/bunx"
  echo "building the base root: Debian $codename (minbase) from $mirror, bun $version from npm ($package)" >&2
  mmdebstrap --quiet --variant=minbase --include=ca-certificates \
    --customize-hook="copy-in $work/overlay/usr/local/bin/bun $work/overlay/usr/local/bin/bunx /usr/local/bin/" \
    --customize-hook='chroot "$1" sh -c "rm -rf /var/lib/apt/lists/* /var/cache/apt/*"' \
    "$codename" "$work/root.tar" "$mirror" >&2
  mv "$work/root.tar" "$tarball"
  rm -rf "$work" && trap - EXIT
fi

podman image exists "$image-debian" || podman import --quiet \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'CMD ["/usr/local/bin/bun"]' \
  "$tarball" "$image-debian" >/dev/null
if [[ "${1:-}" == --plain ]]; then echo "$image-debian"; exit 0; fi
# This machine's own certificate authorities (/usr/local/share/ca-certificates: a TLS-inspecting egress
# here), so `bun install` in the image build reaches the npm registry as it does on the machine itself.
ctx="$(mktemp -d)"
trap 'rm -rf "$ctx"' EXIT
mkdir "$ctx/ca"
cp /usr/local/share/ca-certificates/*.crt "$ctx/ca/" 2>/dev/null || true
printf '%s\n' "FROM $image-debian" \
  'COPY ca/ /usr/local/share/ca-certificates/' \
  'RUN update-ca-certificates >/dev/null' \
  'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' >"$ctx/Containerfile"
podman build --quiet --network=host -t "$image" "$ctx" >/dev/null
echo "$image"
