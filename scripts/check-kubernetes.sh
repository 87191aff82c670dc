#!/usr/bin/env bash
# Builds every overlay of deploy/kubernetes with kustomize, and a release made with scripts/worker-version.sh, and
# validates what it prints: the Kubernetes kinds against the schemas PyPI's kubernetes-validate ships, strictly, and
# KEDA's against the CRDs of the KEDA release the manifests are written for; then the product's database wiring
# (scripts/check-kubernetes-database.py). The tools are installed under .cache/ on the first run (the Go module proxy
# and PyPI).
set -euo pipefail
cd "$(dirname "$0")/.."
KUSTOMIZE_VERSION=5.7.1
KUBERNETES_VALIDATE_VERSION=1.37.0
KEDA_VERSION=2.17.2
# The oldest Kubernetes the manifests are checked against.
KUBERNETES_VERSION=1.31.0

kustomize=".cache/kustomize-$KUSTOMIZE_VERSION/kustomize"
if [ ! -x "$kustomize" ]; then
  GOBIN="$PWD/.cache/kustomize-$KUSTOMIZE_VERSION" go install "sigs.k8s.io/kustomize/kustomize/v5@v$KUSTOMIZE_VERSION"
fi
validator=".cache/kubernetes-validate-$KUBERNETES_VALIDATE_VERSION"
if [ ! -d "$validator/kubernetes_validate" ]; then
  python3 -m pip install --quiet --disable-pip-version-check --target "$validator" \
    "kubernetes-validate==$KUBERNETES_VALIDATE_VERSION"
fi
# KEDA's CRDs, from its Go module (read-only files, as Go keeps them).
keda_dir=$(GOMODCACHE="$PWD/.cache/gomod" GOFLAGS=-modcacherw go mod download -json \
  "github.com/kedacore/keda/v2@v$KEDA_VERSION" | python3 -c 'import json,sys; print(json.load(sys.stdin)["Dir"])')

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
built=()
for overlay in deploy/kubernetes/overlays/*/; do
  name=$(basename "$overlay")
  "$kustomize" build "$overlay" >"$out/$name.yaml"
  built+=("$out/$name.yaml")
done
# A release as scripts/worker-version.sh makes it, on a copy of the manifests: a second worker version beside the first,
# then the first taken out once drained. Each step must build and validate, with each version's resources its own.
release=$(mktemp -d)
trap 'rm -rf "$out" "$release"' EXIT
cp -r deploy/kubernetes "$release/"
overlay="$release/kubernetes/overlays/self-hosted"
version_resources() { grep -E '^  name: ramp-(worker|migrate)-[0-9]' "$1" | sort | uniq -c | awk '{ print $1 "x" $3 }' | xargs; }
bash scripts/worker-version.sh add "$overlay" 1.1.0 >/dev/null
"$kustomize" build "$overlay" >"$out/release-beside.yaml"
bash scripts/worker-version.sh remove "$overlay" 1.0.0 >/dev/null
"$kustomize" build "$overlay" >"$out/release-drained.yaml"
built+=("$out/release-beside.yaml" "$out/release-drained.yaml")
beside=$(version_resources "$out/release-beside.yaml")
drained=$(version_resources "$out/release-drained.yaml")
release_failures=0
# Per version: its Deployment, ScaledObject and PodDisruptionBudget, and its migrations Job.
if [ "$beside" != "1xramp-migrate-1.0.0 1xramp-migrate-1.1.0 3xramp-worker-1.0.0 3xramp-worker-1.1.0" ] ||
  [ "$drained" != "1xramp-migrate-1.1.0 3xramp-worker-1.1.0" ]; then
  echo "FAIL scripts/worker-version.sh: beside: $beside; drained: $drained (want 4 resources per version)"
  release_failures=1
fi
PYTHONPATH="$validator" python3 scripts/validate-kubernetes.py "$KUBERNETES_VERSION" \
  "$keda_dir/config/crd/bases" "${built[@]}"
PYTHONPATH="$validator" python3 scripts/check-kubernetes-database.py "${built[@]}"
exit "$release_failures"
