#!/usr/bin/env bash
# Regenerates the Go code of plugins/proto from its .proto files with pinned
# generators. protoc comes from the system (Debian: protobuf-compiler); the
# Go plugins are installed at the versions below, which match the grpc and
# protobuf modules in go.mod.
set -euo pipefail
cd "$(dirname "$0")/.."

PROTOC_GEN_GO_VERSION=v1.36.6      # = google.golang.org/protobuf in go.mod
PROTOC_GEN_GO_GRPC_VERSION=v1.3.0  # generated code needs grpc >= 1.52 (go.mod: 1.61)

bin="$(go env GOPATH)/bin"
want() { # want TOOL VERSION: is TOOL at VERSION in $bin?
	[ -x "$bin/$1" ] && "$bin/$1" --version 2>/dev/null | grep -q "${2#v}"
}
want protoc-gen-go "$PROTOC_GEN_GO_VERSION" ||
	go install "google.golang.org/protobuf/cmd/protoc-gen-go@$PROTOC_GEN_GO_VERSION"
want protoc-gen-go-grpc "$PROTOC_GEN_GO_GRPC_VERSION" ||
	go install "google.golang.org/grpc/cmd/protoc-gen-go-grpc@$PROTOC_GEN_GO_GRPC_VERSION"

command -v protoc >/dev/null || { echo "protoc not found: apt-get install protobuf-compiler" >&2; exit 1; }

for f in $(find plugins/proto -name '*.proto' | sort); do
	PATH="$bin:$PATH" protoc -I plugins/proto \
		--go_out=plugins/proto --go_opt=paths=source_relative \
		--go-grpc_out=plugins/proto --go-grpc_opt=paths=source_relative \
		"${f#plugins/proto/}"
done
