#!/usr/bin/env bash
# Runs every test of Stillwater: the Maven suites of all modules (unit, property and
# end-to-end tests through pgjdbc), then the pgbench scripts against a real `serve`.
# Needs only a JDK 21+ (found automatically), Maven, and PostgreSQL 15's client tools
# (psql, pgbench) and server (for comparison tests); when run as root on Debian it
# installs missing packages itself.
set -euo pipefail
root="$(cd "$(dirname "$0")" && pwd)"
cd "$root"
. bin/find-java.sh

need_pkgs=()
command -v mvn >/dev/null || need_pkgs+=(maven)
command -v pgbench >/dev/null || need_pkgs+=(postgresql-client-15)
[ -x /usr/lib/postgresql/15/bin/postgres ] || need_pkgs+=(postgresql-15)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing ${need_pkgs[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
  else
    echo "missing: ${need_pkgs[*]} (install them, then re-run)" >&2; exit 1
  fi
fi

echo "== Maven test suites (JAVA_HOME=$JAVA_HOME)"
# package = compile, run every module's tests, then build the shaded CLI jar that the
# pgbench step launches.
# STILLWATER_REQUIRE_CHROMIUM=true (.ci/run sets it) makes the bench HTML report's headless Chromium
# test fail when Chromium is missing instead of skipping it.
mvn -B -ntp -Dstyle.color=never -Dstillwater.requireChromium="${STILLWATER_REQUIRE_CHROMIUM:-false}" package

echo "== pgbench scripts against stillwater serve"
test/pgbench/run.sh --clients 4 --seconds 5
echo "all tests passed"
