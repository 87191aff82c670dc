#!/usr/bin/env bash
# Adds or removes a worker version in a Kustomize overlay (docs/deployment.md, "Releasing a change"):
#
#   scripts/worker-version.sh add <overlay directory> <build ID>
#   scripts/worker-version.sh remove <overlay directory> <build ID>
#
# The build ID is the release's image tag. `add` writes <overlay>/workers/<build ID>/kustomization.yaml, one version of
# deploy/kubernetes/worker: its Deployment, ScaledObject and PodDisruptionBudget named ramp-worker-<build ID> and its
# database migrations Job ramp-migrate-<build ID>, all labelled ramp-orchestrator/build-id=<build ID>, its workers
# started with --build-id <build ID> once its migrations ran, KEDA reading that version's backlog, the image of that
# tag; then lists it among the overlay's resources. `remove` takes it out of the overlay and deletes the folder;
# `kubectl apply` does not delete what an overlay no longer lists, so delete the version's resources from the cluster
# too (the runbook says how). Both print what they changed.
set -euo pipefail

usage() {
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
[ $# -eq 3 ] || usage
action=$1
overlay=${2%/}
build_id=$3
[ -f "$overlay/kustomization.yaml" ] || { echo "$overlay has no kustomization.yaml" >&2; exit 2; }
# As the worker refuses any other (src/config/worker-version.ts): a name suffix and a label value too.
if ! [[ $build_id =~ ^[a-z0-9]([a-z0-9.-]{0,61}[a-z0-9])?$ ]]; then
  echo "\"$build_id\" is not a build ID: 1-63 lower-case letters, digits, \".\" or \"-\", starting and ending with a letter or digit" >&2
  exit 2
fi
# A Job's name is at most 63 characters: ramp-migrate-<build ID>.
if [ ${#build_id} -gt 50 ]; then
  echo "\"$build_id\" is longer than the 50 characters the version's Job ramp-migrate-<build ID> can take" >&2
  exit 2
fi
kustomization=$overlay/kustomization.yaml
version_dir=$overlay/workers/$build_id
entry="  - workers/$build_id"

case $action in
  add)
    [ ! -e "$version_dir" ] || { echo "$version_dir exists already" >&2; exit 1; }
    template=$(cd "$(dirname "$0")/../deploy/kubernetes/worker" && pwd)
    mkdir -p "$version_dir"
    # The Worker Deployment is the task queue's: the overlay's TEMPORAL_TASK_QUEUE, else the base settings'.
    base_settings=$(cd "$(dirname "$0")/../deploy/kubernetes/base" && pwd)/settings.env
    task_queue=$(sed -n 's/^ *- TEMPORAL_TASK_QUEUE=//p' "$kustomization" | tail -n 1)
    [ -n "$task_queue" ] || task_queue=$(sed -n 's/^TEMPORAL_TASK_QUEUE=//p' "$base_settings" | tail -n 1)
    cat >"$version_dir/kustomization.yaml" <<EOF
# Worker version $build_id (scripts/worker-version.sh): deploy/kubernetes/worker named and labelled after the build
# ID, its workers polling as that version of the task queue's Worker Deployment, KEDA reading that version's
# backlog, the image of that tag.
apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
resources:
  - $(realpath --relative-to="$version_dir" "$template")
nameSuffix: -$build_id
labels:
  - pairs:
      ramp-orchestrator/build-id: '$build_id'
    includeSelectors: true
images:
  - name: ramp-orchestrator-worker
    newTag: '$build_id'
patches:
  - target: { kind: Deployment }
    patch: |-
      - op: add
        path: /spec/template/spec/containers/0/args
        value: ['--build-id', '$build_id']
  - target: { kind: ScaledObject }
    patch: |-
      - op: replace
        path: /spec/scaleTargetRef/name
        value: ramp-worker-$build_id
      - op: add
        path: /spec/triggers/0/metadata/buildId
        value: '$task_queue:$build_id'
EOF
    # Listed first among the overlay's resources.
    awk -v entry="$entry" '{ print } /^resources:/ && !done { print entry; done = 1 }' "$kustomization" \
      >"$kustomization.new"
    mv "$kustomization.new" "$kustomization"
    echo "added $version_dir and listed it in $kustomization"
    ;;
  remove)
    grep -qxF "$entry" "$kustomization" || { echo "$kustomization does not list workers/$build_id" >&2; exit 1; }
    grep -vxF "$entry" "$kustomization" >"$kustomization.new"
    mv "$kustomization.new" "$kustomization"
    rm -rf "$version_dir"
    echo "removed workers/$build_id from $kustomization and deleted $version_dir"
    ;;
  *)
    usage
    ;;
esac
