#!/usr/bin/env bash
# The browser tests: builds the demo page, then runs the scenarios in a
# real headless Chromium. Arguments filter the scenarios by name.
#
#   crates/evenstep-web/test-browser.sh [NAME_FILTER...]
#
# Set EVENSTEP_WEB_SCREENSHOT=crates/evenstep-web/screenshot.png to refresh
# the README's screenshot from the screenshot scenario.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
"$here/build-page.sh"
cd "$here/../.."
cargo test -p evenstep-demo --test browser -- "$@"
