#!/bin/sh
# Creates (or brings up to date) Temporal's two PostgreSQL databases with temporal-sql-tool and the schema embedded
# in it. Run by compose's temporal-schema job (temporalio/admin-tools) and by `npm run test:cluster`; safe to run
# again (the tool's create accepts an existing database; setup-schema and update-schema start from the recorded
# version). Every failure fails the job.
# Reads POSTGRES_SEEDS, DB_PORT, POSTGRES_USER, POSTGRES_PWD; SQL_TOOL names the tool (default temporal-sql-tool).
set -eu
: "${POSTGRES_SEEDS:?set POSTGRES_SEEDS}" "${POSTGRES_USER:?set POSTGRES_USER}" "${POSTGRES_PWD:?set POSTGRES_PWD}"
SQL_TOOL=${SQL_TOOL:-temporal-sql-tool}
# The tool reads its password from SQL_PASSWORD, which keeps it off the command line.
SQL_PASSWORD=$POSTGRES_PWD
export SQL_PASSWORD

sql() {
  db_name=$1
  shift
  "$SQL_TOOL" --plugin postgres12 --ep "$POSTGRES_SEEDS" -p "${DB_PORT:-5432}" -u "$POSTGRES_USER" --db "$db_name" "$@"
}

for database in temporal:temporal temporal_visibility:visibility; do
  name=${database%%:*}
  schema=${database##*:}
  sql "$name" create
  sql "$name" setup-schema -v 0.0
  sql "$name" update-schema --schema-name "postgresql/v12/$schema"
  echo "database $name: schema up to date"
done
