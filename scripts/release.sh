#!/usr/bin/env bash
# Release build: static binaries of the site and of the engine command in
# dist/ (or $OUT), with the version and the commit stamped in, so that the
# footer and `oware -version` show them also where Go records no VCS data
# (GOFLAGS=-buildvcs=false, a tarball, a container build).
#
#   bash scripts/release.sh v0.1.0            # this machine's OS and CPU
#   GOOS=linux GOARCH=arm64 bash scripts/release.sh v0.1.0
#
# The version defaults to `git describe --tags --always --dirty`.
set -euo pipefail
cd "$(dirname "$0")/.."

version=${1:-$(git describe --tags --always --dirty 2>/dev/null || echo dev)}
commit=$(git rev-parse --short=7 HEAD)
out=${OUT:-dist}
mkdir -p "$out"
export CGO_ENABLED=0 # static: no C library needed where it runs

go build -trimpath -ldflags "-s -w -X main.version=$version -X main.commit=$commit" -o "$out/oware" ./cmd/oware
go build -trimpath -ldflags "-s -w" -o "$out/oware-engine" ./cmd/oware-engine
echo "built $out/oware and $out/oware-engine: $version $commit (${GOOS:-$(go env GOOS)}/${GOARCH:-$(go env GOARCH)})"
