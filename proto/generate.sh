#!/usr/bin/env bash
# Regenerates the committed Swift and C code from proto/pitchside.proto.
# Run by hand after editing the schema; the build never runs it, because
# building protoc-gen-swift takes about ten minutes.
#
#   proto/generate.sh                 # builds protoc-gen-swift once into .build-protoc
#   PROTOC_GEN_SWIFT=/path proto/generate.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

command -v protoc >/dev/null || { echo "generate.sh: protoc missing (apt install protobuf-compiler)" >&2; exit 1; }
command -v protoc-c >/dev/null || { echo "generate.sh: protoc-c missing (apt install protobuf-c-compiler)" >&2; exit 1; }

plugin=${PROTOC_GEN_SWIFT:-}
if [ -z "$plugin" ]; then
  src=.build-protoc/swift-protobuf
  if [ ! -d "$src" ]; then
    mkdir -p .build-protoc
    git clone -q https://github.com/apple/swift-protobuf "$src"
    git -C "$src" checkout -q 1.39.0
  fi
  echo "generate.sh: building protoc-gen-swift (first time takes ~10 minutes)" >&2
  swift build --package-path "$src" --product protoc-gen-swift >&2
  plugin="$src/.build/debug/protoc-gen-swift"
fi

mkdir -p Sources/PitchsideCore/Generated clients/c/generated
protoc --plugin=protoc-gen-swift="$plugin" \
  --swift_opt=Visibility=Public \
  --swift_out=Sources/PitchsideCore/Generated \
  -I proto proto/pitchside.proto
protoc-c --c_out=clients/c/generated -I proto proto/pitchside.proto
echo "generate.sh: wrote Sources/PitchsideCore/Generated/pitchside.pb.swift and clients/c/generated/pitchside.pb-c.[ch]" >&2
