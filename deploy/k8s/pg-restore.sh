#!/bin/sh
# Restore a dump of pg-backup.sh into $PGDATABASE (libpq's variables as for pg-backup.sh), which
# must exist and be empty: create it fresh (createdb) after stopping every Spielcenter process.
# One transaction: on any error nothing is restored.  The dump holds schema_migrations, so the
# services, started again, apply only migrations newer than the dump.
set -eu
dump=${1:?usage: pg-restore.sh <file.dump>}
pg_restore --no-owner --no-privileges --exit-on-error --single-transaction --dbname="$PGDATABASE" "$dump"
echo "restored $dump into $PGDATABASE"
