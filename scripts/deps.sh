#!/usr/bin/env bash
# scripts/deps.sh: installs the Debian packages needed to build and test anon (PostgreSQL 15 server and
# headers, Boost, GoogleTest, libpq, g++, make, clang with libFuzzer, clang-format, python3, chromium). A fresh CI machine has none of
# them, so the test and demo commands call this first. It asks dpkg what is missing and runs apt-get only for that, so a machine that
# already has everything pays nothing. Idempotent; prints only what it installs.
set -uo pipefail

# clang and libclang-rt-14-dev (libFuzzer's and the sanitizers' runtimes) build the fuzz targets (make fuzz).
# python3 runs the layering check (tests/scripts/layering_check.py). chromium (headless) renders the release report
# page in tests/scripts/report_html_test.sh.
PACKAGES=(postgresql-15 postgresql-server-dev-15 libboost-dev libgtest-dev libpq-dev g++ make clang libclang-rt-14-dev clang-format
          python3 chromium)

missing=()
for pkg in "${PACKAGES[@]}"; do
    status=$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)
    [ "$status" = "install ok installed" ] || missing+=("$pkg")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}"
sudo=()
if [ "$(id -u)" -ne 0 ]; then
    command -v sudo >/dev/null || { echo "deps: not root and no sudo; install them by hand" >&2; exit 1; }
    sudo=(sudo)
fi

log=$(mktemp /tmp/anon-deps.XXXXXX.log)
apt=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get -q -y -o DPkg::Lock::Timeout=300)
if ! "${apt[@]}" update >"$log" 2>&1 ||
   ! "${apt[@]}" install --no-install-recommends "${missing[@]}" >>"$log" 2>&1; then
    tail -n 40 "$log" >&2
    echo "deps: apt-get failed (full log: $log)" >&2
    exit 1
fi
rm -f "$log"
echo "deps: installed ${missing[*]}"
