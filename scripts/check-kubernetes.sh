#!/usr/bin/env bash
# Builds every overlay of deploy/kubernetes with kustomize and validates what it prints: the Kubernetes kinds against
# the schemas PyPI's kubernetes-validate ships, strictly, and KEDA's against the CRDs of the KEDA release the manifests
# are written for. The tools are installed under .cache/ on the first run (the Go module proxy and PyPI).
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
PYTHONPATH="$validator" python3 scripts/validate-kubernetes.py "$KUBERNETES_VERSION" \
  "$keda_dir/config/crd/bases" "${built[@]}"
