#!/bin/sh
# Creates the product's own database and the role it connects as, on a PostgreSQL server it may share with Temporal,
# as DATABASE_URL names them (postgres://<role>:<password>@<host>:<port>/<database>): the role may log in with that
# password and owns the database, where `npm run db:migrate` then creates the tables. Run by compose's ramp-database
# job (the postgres image's psql) and by `npm run test:cluster`; safe to run again: a role that exists is given the
# URL's password again (how a new password takes effect), a database that exists is left alone. Every failure fails
# the job.
# Reads DATABASE_URL_FILE, the file the processes read the URL from, and psql's PGHOST, PGPORT, PGUSER and PGPASSWORD:
# the server's administrator. PSQL names psql (default psql).
set -eu
: "${DATABASE_URL_FILE:?set DATABASE_URL_FILE}" "${PGHOST:?set PGHOST}" "${PGUSER:?set PGUSER}"
PSQL=${PSQL:-psql}
url=$(cat "$DATABASE_URL_FILE")

fail() {
  echo "DATABASE_URL_FILE ($DATABASE_URL_FILE): $1" >&2
  exit 1
}
case $url in
  postgres://*@*/* | postgresql://*@*/*) ;;
  *) fail 'not a URL of the form postgres://<role>:<password>@<host>:<port>/<database>' ;;
esac
rest=${url#*://}
credentials=${rest%%@*}
role=${credentials%%:*}
password=${credentials#*:}
database=${rest#*@}
database=${database#*/}
database=${database%%\?*}
[ "$password" != "$credentials" ] && [ -n "$password" ] || fail 'the URL has no password'
[ -n "$role" ] && [ -n "$database" ] || fail 'the URL names no role or no database'
# Percent-escapes are not decoded here: the names and the password are taken as written.
case $credentials$database in
  *%*) fail 'use a role, database and password that need no %-escapes in a URL (e.g. openssl rand -hex 24)' ;;
esac

# The values travel as psql variables, quoted by format() (%I, %L): nothing in them is read as SQL. Terse errors
# leave the statement, and so the password, out of what psql prints.
"$PSQL" -X -q -v ON_ERROR_STOP=1 -v VERBOSITY=terse -d postgres \
  -v role="$role" -v password="$password" -v database="$database" <<'SQL'
select format('create role %I login', :'role') where not exists (select from pg_roles where rolname = :'role') \gexec
select format('alter role %I login password %L', :'role', :'password') \gexec
select format('create database %I owner %I', :'database', :'role')
  where not exists (select from pg_database where datname = :'database') \gexec
SQL
echo "database $database: owned by role $role, which logs in with the URL's password"
