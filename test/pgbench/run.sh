#!/usr/bin/env bash
# Runs the pgbench scripts of this directory against a fresh `stillwater serve`
# (and, with --compare-postgres, against a throwaway PostgreSQL 15 cluster) and prints
# the tps of each; then pgbench's own tables: `pgbench -i` (scale 1) and its built-in
# select-only script, and with --tpcb its default TPC-B-like script (which needs
# UPDATE inside BEGIN). Exits non-zero if pgbench reports an error or a failed transaction.
#
#   test/pgbench/run.sh [--clients N] [--seconds S] [--compare-postgres] [--tpcb]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
clients=4
seconds=10
compare=0
tpcb=0
while [ $# -gt 0 ]; do
  case "$1" in
    --clients) clients="$2"; shift 2 ;;
    --seconds) seconds="$2"; shift 2 ;;
    --compare-postgres) compare=1; shift ;;
    --tpcb) tpcb=1; shift ;;
    -h|--help) sed -n '2,9p' "$0"; exit 0 ;;
    *) echo "unknown argument: $1" >&2; exit 2 ;;
  esac
done

free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1]); s.close()'; }
work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]:-}"; do [ -n "$p" ] && kill "$p" 2>/dev/null || true; done
  if [ -f "$work/pg/postmaster.pid" ]; then runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg" -m immediate stop >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

run_bench() { # name port user db
  local name="$1" port="$2" user="$3" db="$4" out status=0
  for script in point_query insert; do
    out="$work/$name-$script.log"
    if ! pgbench -h 127.0.0.1 -p "$port" -U "$user" -n -M prepared -c "$clients" -j "$clients" -T "$seconds" \
        -f "$here/$script.sql" "$db" >"$out" 2>&1; then
      echo "pgbench $script against $name FAILED:" >&2; cat "$out" >&2; status=1; continue
    fi
    if grep -qE 'number of failed transactions: [1-9]' "$out"; then
      echo "pgbench $script against $name had failed transactions:" >&2; cat "$out" >&2; status=1
    fi
    printf '%-11s %-12s clients=%-3s %s\n' "$name" "$script" "$clients" "$(grep -E '^tps' "$out" | head -1)"
  done
  # pgbench's own tables and built-in scripts
  out="$work/$name-init.log"
  if ! pgbench -h 127.0.0.1 -p "$port" -U "$user" -i -q "$db" >"$out" 2>&1; then
    echo "pgbench -i against $name FAILED:" >&2; cat "$out" >&2; return 1
  fi
  printf '%-11s %-12s %s\n' "$name" "init" "$(grep -E '^done in' "$out" | head -1)"
  local builtins=(select-only)
  [ "$tpcb" = 1 ] && builtins+=(tpcb-like)
  for builtin in "${builtins[@]}"; do
    out="$work/$name-$builtin.log"
    if ! pgbench -h 127.0.0.1 -p "$port" -U "$user" -n -b "$builtin" -c "$clients" -j "$clients" -T "$seconds" \
        "$db" >"$out" 2>&1; then
      echo "pgbench -b $builtin against $name FAILED:" >&2; cat "$out" >&2; status=1; continue
    fi
    if grep -qE 'number of failed transactions: [1-9]' "$out"; then
      echo "pgbench -b $builtin against $name had failed transactions:" >&2; cat "$out" >&2; status=1
    fi
    printf '%-11s %-12s clients=%-3s %s\n' "$name" "$builtin" "$clients" "$(grep -E '^tps' "$out" | head -1)"
  done
  return $status
}

# --- Stillwater
port="$(free_port)"
"$root/stillwater" serve --listen 127.0.0.1 --port "$port" --data-dir "$work/sw" >"$work/serve.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 300); do
  if psql -h 127.0.0.1 -p "$port" -U materialize -d materialize -qAt -c 'SELECT 1' >/dev/null 2>&1; then break; fi
  sleep 0.2
done
psql -h 127.0.0.1 -p "$port" -U materialize -d materialize -v ON_ERROR_STOP=1 -q -f "$here/setup.sql"
status=0
run_bench stillwater "$port" materialize materialize || status=1

# --- PostgreSQL 15, same table, same clients
if [ "$compare" = 1 ]; then
  pgbin=/usr/lib/postgresql/15/bin
  chown postgres "$work"
  runuser -u postgres -- "$pgbin/initdb" -D "$work/pg" -A trust >/dev/null
  pgport="$(free_port)"
  runuser -u postgres -- "$pgbin/pg_ctl" -D "$work/pg" -o "-p $pgport -k $work -c listen_addresses=127.0.0.1" -l "$work/pg.log" -w start >/dev/null
  psql -h 127.0.0.1 -p "$pgport" -U postgres -d postgres -v ON_ERROR_STOP=1 -q -f "$here/setup.sql"
  run_bench postgresql "$pgport" postgres postgres || status=1
fi
exit $status
