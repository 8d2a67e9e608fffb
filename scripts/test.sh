#!/usr/bin/env bash
# `npm test`: every check, in order, each run even when an earlier one failed:
# typecheck, lint, format, unit + integration (PGlite; PGlite again with the clock moved
# 400 days on, half the files at each of two instants; PostgreSQL; the PostgreSQL-only tests
# with the clock moved), build, end-to-end.
# Without TEST_DATABASE_URL it starts a throwaway PostgreSQL cluster when PostgreSQL is installed.
set -uo pipefail
cd "$(dirname "$0")/.."
mkdir -p .tmp/results
rm -f .tmp/results/*.json

own_cluster=""
cleanup() {
  if [ -n "$own_cluster" ]; then bash scripts/pg-cluster.sh stop "$own_cluster" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT INT TERM

if [ -z "${TEST_DATABASE_URL:-}" ]; then
  own_cluster=$(mktemp -d /tmp/handyman-test-pg.XXXXXX)
  if url=$(bash scripts/pg-cluster.sh start "$own_cluster" 2>/tmp/handyman-pg-start.log); then
    export TEST_DATABASE_URL="$url"
    echo "Started a throwaway PostgreSQL cluster: $TEST_DATABASE_URL"
  else
    echo "PostgreSQL is not installed: the PostgreSQL and end-to-end suites need it (apt-get install -y postgresql)."
    rm -rf "$own_cluster"
    own_cluster=""
  fi
fi

declare -a failed_steps=()
step() {
  local name=$1
  shift
  echo
  echo "=== $name ==="
  if "$@"; then
    echo "--- $name: ok"
    echo "{\"kind\":\"check\",\"name\":\"$name\",\"passed\":1,\"failed\":0}" >".tmp/results/check-${name// /-}.json"
  else
    echo "--- $name: FAILED"
    failed_steps+=("$name")
    echo "{\"kind\":\"check\",\"name\":\"$name\",\"passed\":0,\"failed\":1}" >".tmp/results/check-${name// /-}.json"
  fi
}

step "typecheck" bash -c "npx react-router typegen && npx tsc --noEmit"
step "lint" npx eslint . --max-warnings=0
step "format" npx prettier --check .
step "unit and integration (PGlite)" npx vitest run --reporter=default --reporter=json --outputFile.json=.tmp/results/vitest-pglite.json
# The same suite on PGlite with the machine's clock moved 400 days on (scripts/moved-clock.ts),
# in other time zones: a test that compares a fixed date with the real clock fails here today
# instead of on the day the clock passes that date. Needs faketime (Debian's faketime package).
# The suite is split in two halves by file (vitest --shard), one half at each moved instant:
# every file runs once with the clock moved, and the two runs cost one (CI's 60 minutes).
# MOVED_CLOCK_FULL=1 runs the whole suite at both instants.
moved_clock() { # $1 = instant (friday-night | after-midnight), $2 = the machine's time zone, $3 = shard
  local offset shard=()
  offset=$(npx tsx scripts/moved-clock.ts "$1") || return 1
  [ -n "${MOVED_CLOCK_FULL:-}" ] || shard=(--shard="$3")
  echo "Clock moved to $(npx tsx scripts/moved-clock.ts "$1" --iso) (+${offset} s), TZ=$2 ${shard[*]}"
  TZ="$2" FAKETIME_DONT_FAKE_MONOTONIC=1 faketime -f "+${offset}s" npx vitest run "${shard[@]}" \
    --reporter=default --reporter=json --outputFile.json=".tmp/results/vitest-pglite-$1.json"
}
if command -v faketime >/dev/null 2>&1; then
  step "unit and integration (PGlite, 23:30 Eastern on a Friday before a holiday, 400+ days on)" \
    moved_clock friday-night Pacific/Kiritimati 1/2
  step "unit and integration (PGlite, 00:30 Eastern, 400 days on)" \
    moved_clock after-midnight America/Los_Angeles 2/2
elif [ -n "${CI:-}" ]; then
  failed_steps+=("moved clock (faketime is not installed)")
else
  echo "faketime is not installed: the moved-clock runs are skipped (apt-get install -y faketime)."
fi
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  step "integration (PostgreSQL)" env TEST_DB=postgres npx vitest run tests/integration --reporter=default --reporter=json --outputFile.json=.tmp/results/vitest-postgres.json
fi
# The PostgreSQL-only tests (describe.runIf postgres) are skipped by the PGlite runs above, the
# moved-clock ones too: they run once more with the clock moved 400 days on, against a cluster
# of their own whose clock is moved alike (a server on the real clock beside tests on a moved
# one would disagree about `now()`). A test of a fixed date against the real clock fails here.
moved_clock_postgres() {
  local lib offset dir url rc files
  lib=$(ls /usr/lib/*/faketime/libfaketime.so.1 2>/dev/null | head -n 1)
  [ -n "$lib" ] || { echo "libfaketime is not installed (apt-get install -y faketime)"; return 1; }
  offset=$(npx tsx scripts/moved-clock.ts after-midnight) || return 1
  # Not the lock races (transaction-conflicts): they have no date in them, and against a cluster
  # under libfaketime its 20 racing cancels never finished (30 s, on Node 20 and 24; seconds on
  # the real clock), most likely PostgreSQL's deadlock timer upset by the moved clock.
  mapfile -t files < <(grep -l 'testDatabaseKind() === "postgres"' tests/integration/*.test.ts |
    grep -v 'transaction-conflicts')
  dir=$(mktemp -d /tmp/handyman-moved-pg.XXXXXX)
  local moved=(env LD_PRELOAD="$lib" FAKETIME="+${offset}s" FAKETIME_DONT_FAKE_MONOTONIC=1)
  if ! url=$("${moved[@]}" bash scripts/pg-cluster.sh start "$dir"); then
    rm -rf "$dir"
    return 1
  fi
  echo "Clock moved to $(npx tsx scripts/moved-clock.ts after-midnight --iso) (+${offset} s) for ${#files[@]} files and their cluster"
  "${moved[@]}" TZ=America/Los_Angeles TEST_DB=postgres TEST_DATABASE_URL="$url" npx vitest run "${files[@]}" \
    --reporter=default --reporter=json --outputFile.json=.tmp/results/vitest-postgres-after-midnight.json
  rc=$?
  bash scripts/pg-cluster.sh stop "$dir" >/dev/null 2>&1 || true
  return $rc
}
if command -v faketime >/dev/null 2>&1 && ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  step "integration (PostgreSQL-only tests, 00:30 Eastern, 400 days on)" moved_clock_postgres
fi
step "build" node scripts/build.mjs
if [ -n "${TEST_DATABASE_URL:-}" ]; then
  step "end-to-end" env PLAYWRIGHT_JSON_OUTPUT_NAME=.tmp/results/playwright.json npx playwright test
else
  failed_steps+=("end-to-end (no PostgreSQL)")
fi

node scripts/test-summary.mjs .tmp/results
if [ ${#failed_steps[@]} -gt 0 ]; then
  echo "Failed steps: ${failed_steps[*]}"
  node scripts/test-summary.mjs .tmp/results --line
  exit 1
fi
node scripts/test-summary.mjs .tmp/results --line
