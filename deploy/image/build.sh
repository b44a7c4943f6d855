#!/usr/bin/env bash
# Builds the production image from the Dockerfile: on the official node:24-bookworm-slim where it can be
# pulled, else on a stand-in built here once from Debian's and npm's packages (node-base.sh).
#
#   deploy/image/build.sh [tag]          (default finops:local; needs a Docker daemon)
set -euo pipefail
tag=${1:-finops:local}
cd "$(dirname "$0")/../.."

base=node:24-bookworm-slim
if ! docker image inspect "$base" >/dev/null 2>&1 && ! docker pull -q "$base" >/dev/null 2>&1; then
  base=finops/node-base:24-bookworm-slim
  docker image inspect "$base" >/dev/null 2>&1 || bash deploy/image/node-base.sh "$base"
fi
# The host's network: the build's npm ci and apt-get reach the registries as this machine does.
docker build --quiet --network host --build-arg "NODE_IMAGE=$base" --tag "$tag" . >/dev/null
echo "$tag on $base"
