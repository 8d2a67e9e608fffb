#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests and benchmarks.
#   scripts/pg-cluster.sh start DIR [PORT]   prints the connection URL
#   scripts/pg-cluster.sh stop DIR
#   scripts/pg-cluster.sh pause DIR          stops the server (fast shutdown), keeps the data
#   scripts/pg-cluster.sh resume DIR         starts it again on the same port
# PostgreSQL refuses to run as root: as root, the cluster runs as the `postgres` user.
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?data directory}

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1 || true)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
  echo "PostgreSQL server binaries not found (apt-get install -y postgresql)" >&2
  exit 3
fi

as_owner() {
  if [ "$(id -u)" = "0" ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

start_server() {
  as_owner "$bindir/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $1 -k $dir -c listen_addresses=127.0.0.1 -c max_connections=300 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
    start >/dev/null || { cat "$dir/server.log" >&2; exit 1; }
}

case "$cmd" in
  start)
    port=${3:-$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')}
    mkdir -p "$dir"
    if [ "$(id -u)" = "0" ]; then chown postgres:postgres "$dir"; fi
    chmod 700 "$dir"
    as_owner "$bindir/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    start_server "$port"
    echo "$port" >"$dir/port"
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  pause)
    as_owner "$bindir/pg_ctl" -D "$dir/data" -m fast -w -t 60 stop >/dev/null
    ;;
  resume)
    start_server "$(cat "$dir/port")"
    ;;
  stop)
    if [ -d "$dir/data" ]; then
      as_owner "$bindir/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null 2>&1 || true
    fi
    rm -rf "$dir"
    ;;
  *)
    echo "unknown command $cmd" >&2
    exit 2
    ;;
esac
