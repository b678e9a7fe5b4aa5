#!/bin/bash
# Debian's PostgreSQL server for the team index tests, from apt, when it is not installed yet.
# Only the binaries are wanted: the tests run their own server (initdb + pg_ctl as the postgres
# user, a temporary data directory, a loopback port, stopped at the end), so the package's default
# cluster is not created. Without root (a developer's machine) nothing is installed and the tests
# that need the server are skipped with a note; in CI (CI=true) a missing server fails them.
set -uo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" != 0 ]; then
  echo "install-postgres: PostgreSQL is not installed and this is not root; the team index tests on PostgreSQL will be skipped"
  exit 0
fi
export DEBIAN_FRONTEND=noninteractive
mkdir -p /etc/postgresql-common
[ -f /etc/postgresql-common/createcluster.conf ] || echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf
install() { apt-get install -y -q -o Dpkg::Options::=--force-confold postgresql >/dev/null; }
install || { apt-get update -q >/dev/null && install; } || { echo "install-postgres: apt-get install postgresql failed"; exit 1; }
ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || { echo "install-postgres: initdb not found after install"; exit 1; }
echo "install-postgres: $(ls -d /usr/lib/postgresql/*/bin | tail -1) installed"
