#!/usr/bin/env bash
# Builds the demo page (evenstep-demo's `page` example) into a folder any static file server serves, and
# prints that folder's absolute path, alone, on standard output (everything
# else goes to standard error):
#
#   crates/evenstep-web/build-page.sh [OUT_DIR]   # default: $CARGO_TARGET_DIR/evenstep-web-page, or target/evenstep-web-page
#   python3 -m http.server -d "$(crates/evenstep-web/build-page.sh)" 8000   # then open http://localhost:8000/
#
# The default is where the browser tests look for the page.
#
# Needs the wasm32-unknown-unknown target and wasm-bindgen-cli at exactly
# the wasm-bindgen version in Cargo.lock (ci.sh installs both).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
out="${1:-$target_dir/evenstep-web-page}"

wanted="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' "$root/Cargo.lock")"
if ! command -v wasm-bindgen >/dev/null; then
    echo "wasm-bindgen is not installed: cargo install wasm-bindgen-cli --version $wanted" >&2
    exit 1
fi
have="$(wasm-bindgen --version | awk '{ print $2 }')"
if [ "$have" != "$wanted" ]; then
    echo "wasm-bindgen $have is installed, but Cargo.lock has $wanted: cargo install wasm-bindgen-cli --version $wanted" >&2
    exit 1
fi

cargo build --release --target wasm32-unknown-unknown -p evenstep-demo --example page >&2
mkdir -p "$out"
out="$(cd "$out" && pwd)"
wasm-bindgen --target web --no-typescript --out-dir "$out" --out-name page \
    "$target_dir/wasm32-unknown-unknown/release/examples/page.wasm" >&2
cp "$root/crates/evenstep-demo/examples/page/index.html" "$out/index.html"
echo "built the demo page in $out" >&2
echo "$out"
