#!/bin/sh
# One PostgreSQL backup: pg_dump of $PGDATABASE into $BACKUP_DIR (default /backups) as
# spielcenter-<UTC time>.dump, pg_dump's custom format (compressed; pg_restore can take it
# whole or table by table), then dumps older than $KEEP_DAYS days (default 14) are removed.
# The connection comes from libpq's variables: PGHOST, PGPORT, PGUSER, PGPASSWORD, PGDATABASE.
# Run by the CronJob in backup.yaml and by compose's pg-backup service; restore with pg-restore.sh.
set -eu
backup_dir=${BACKUP_DIR:-/backups}
keep_days=${KEEP_DAYS:-14}
target="$backup_dir/spielcenter-$(date -u +%Y%m%dT%H%M%SZ).dump"
# Written under another name first: a dump cut short never looks like a backup.
pg_dump --format=custom --no-owner --no-privileges --file="$target.partial"
mv "$target.partial" "$target"
find "$backup_dir" -name 'spielcenter-*.dump' -mtime +"$keep_days" -delete
echo "$target"
