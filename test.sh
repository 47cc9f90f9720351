#!/usr/bin/env bash
# Runs every test of Stillwater: the Maven suites of all modules (unit, property and
# end-to-end tests through pgjdbc), then the pgbench scripts against a real `serve`.
# Needs only a JDK 21+ (found automatically), Maven, and PostgreSQL 15's client tools
# (psql, pgbench) and server (for comparison tests), and python3-psycopg2 (client tests);
# when run as root on Debian it
# installs missing packages itself.
set -euo pipefail
root="$(cd "$(dirname "$0")" && pwd)"
cd "$root"
. bin/find-java.sh

need_pkgs=()
command -v mvn >/dev/null || need_pkgs+=(maven)
command -v pgbench >/dev/null || need_pkgs+=(postgresql-client-15)
[ -x /usr/lib/postgresql/15/bin/postgres ] || need_pkgs+=(postgresql-15)
/usr/bin/python3 -c 'import psycopg2' 2>/dev/null || need_pkgs+=(python3 python3-psycopg2)
if [ ${#need_pkgs[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
    echo "installing ${need_pkgs[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need_pkgs[@]}" >/dev/null
  else
    echo "missing: ${need_pkgs[*]} (install them, then re-run)" >&2; exit 1
  fi
fi

# On failure, say where the testkit's thread dumps are (a test over its time limit, or a test
# JVM about to be killed by Surefire's fork timeout, writes one; see docs/testing.md).
report_hang_dumps() {
  local dumps
  dumps="$(find "$root" -path '*/target/hang-dumps/*.txt' -newer "$started_marker" 2>/dev/null || true)"
  if [ -n "$dumps" ]; then echo "thread dumps of hung tests:" >&2; echo "$dumps" >&2; fi
}
started_marker="$(mktemp)"
trap 'rm -f "$started_marker"' EXIT
trap 'report_hang_dumps' ERR

echo "== Maven test suites (JAVA_HOME=$JAVA_HOME)"
# package = compile, run every module's tests, then build the shaded CLI jar that the
# pgbench step launches. Every test has a time limit and every test JVM one too (root pom,
# stillwater.test.*), so this step cannot hang.
# STILLWATER_REQUIRE_CHROMIUM=true (.ci/run sets it) makes the bench HTML report's headless Chromium
# test fail when Chromium is missing instead of skipping it.
mvn -B -ntp -Dstyle.color=never -Dstillwater.requireChromium="${STILLWATER_REQUIRE_CHROMIUM:-false}" package
maven_seconds=$SECONDS

echo "== pgbench scripts against stillwater serve"
# bounded too: 2 scripts x 5 s plus start-up need well under a minute
timeout 300 test/pgbench/run.sh --clients 4 --seconds 5
echo "all tests passed in $((SECONDS / 60)) min $((SECONDS % 60)) s (Maven suites $((maven_seconds / 60)) min $((maven_seconds % 60)) s)"
