#!/usr/bin/env bash
# The browser's continuous integration, called from .ci/run: installs what
# the browser tests need on a fresh machine (the wasm32 target,
# wasm-bindgen-cli at exactly the version in Cargo.lock, Chromium), lints
# the page and the test harness, and runs the tests in headless Chromium.
# Each install is skipped when already there at the right version.
set -euo pipefail
cd "$(dirname "$0")/../.."
export CARGO_TERM_COLOR=never

step() { printf '\n==> %s\n' "$*"; }

step "browser: the wasm32-unknown-unknown target"
rustup target add wasm32-unknown-unknown

step "browser: wasm-bindgen-cli at the version in Cargo.lock"
wanted="$(awk '/^name = "wasm-bindgen"$/ { getline; gsub(/version = |"/, ""); print; exit }' Cargo.lock)"
have="$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)"
if [ "$have" = "$wanted" ]; then
    echo "wasm-bindgen $have is installed"
else
    # Without --locked: a dependency the CLI's own lock file pins is no
    # longer published, and the install fails with it.
    cargo install wasm-bindgen-cli --version "$wanted"
fi

step "browser: Chromium"
if command -v chromium >/dev/null; then
    echo "$(command -v chromium) is installed"
else
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
fi
chromium --version

step "browser: lints of the page (wasm32) and the browser tests"
cargo clippy -p evenstep-web --target wasm32-unknown-unknown --lib -- -D warnings
cargo clippy -p evenstep-demo --target wasm32-unknown-unknown --example page -- -D warnings
cargo clippy -p evenstep-demo --test browser -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc -p evenstep-web --no-deps --target wasm32-unknown-unknown

step "browser: the demo page in headless Chromium (the tests fail, never skip, without it)"
crates/evenstep-web/test-browser.sh
