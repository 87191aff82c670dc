#!/bin/sh
# Registers the namespace and the product's custom search attributes with the `temporal` CLI. Run by compose's
# temporal-namespace job (temporalio/admin-tools) and by `npm run test:cluster`; safe to run again: what exists is
# left alone, and any other failure fails the job. Reads TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE, optional
# NAMESPACE_RETENTION (default 7d) and TEMPORAL_CLI (default temporal).
set -eu
: "${TEMPORAL_ADDRESS:?set TEMPORAL_ADDRESS}" "${TEMPORAL_NAMESPACE:?set TEMPORAL_NAMESPACE}"
TEMPORAL_CLI=${TEMPORAL_CLI:-temporal}

if "$TEMPORAL_CLI" operator namespace describe --namespace "$TEMPORAL_NAMESPACE" >/dev/null 2>&1; then
  echo "namespace $TEMPORAL_NAMESPACE exists"
else
  "$TEMPORAL_CLI" operator namespace create --namespace "$TEMPORAL_NAMESPACE" --retention "${NAMESPACE_RETENTION:-7d}"
fi

# A new namespace reaches every service's namespace cache within seconds (its refresh interval): wait for it,
# bounded, and fail with the last answer if it never comes.
tries=0
until existing=$("$TEMPORAL_CLI" operator search-attribute list --namespace "$TEMPORAL_NAMESPACE" --output json 2>&1); do
  tries=$((tries + 1))
  if [ "$tries" -ge 60 ]; then
    printf '%s\n' "$existing" >&2
    exit 1
  fi
  sleep 1
done

# The same list as src/domain/search-attributes.ts (a unit test keeps the two equal).
for attribute in RampEndUserId=Keyword RampDirection=Keyword RampStatus=Keyword RampOrderReference=Keyword \
  RampDepositTransactionId=Keyword RampWalletId=Keyword RampNetworks=KeywordList; do
  name=${attribute%%=*}
  type=${attribute##*=}
  if printf '%s' "$existing" | grep -q "\"$name\""; then
    echo "search attribute $name exists"
  else
    "$TEMPORAL_CLI" operator search-attribute create --namespace "$TEMPORAL_NAMESPACE" --name "$name" --type "$type"
  fi
done
