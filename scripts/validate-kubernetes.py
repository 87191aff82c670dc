"""Validates the manifests `kustomize build` prints (read from the files named) against the Kubernetes schemas of
PyPI's kubernetes-validate, strictly (an unknown field is an error), and KEDA's resources against the CRDs of the
KEDA release named (their OpenAPI schemas, unknown fields refused too). Any other kind is an error: nothing goes
unvalidated. Usage: validate-kubernetes.py <kubernetes version> <KEDA CRD directory> <manifests.yaml>...
"""
import glob
import sys

import jsonschema
import kubernetes_validate
import yaml


def strict(schema):
    """The CRD's schema with unknown fields refused wherever it lists the fields (as kubectl's strict mode would)."""
    if isinstance(schema, dict):
        schema = {key: strict(value) for key, value in schema.items()}
        if (
            "properties" in schema
            and "additionalProperties" not in schema
            and not schema.get("x-kubernetes-preserve-unknown-fields")
        ):
            schema["additionalProperties"] = False
        return schema
    if isinstance(schema, list):
        return [strict(item) for item in schema]
    return schema


def crd_schemas(directory):
    schemas = {}
    for path in glob.glob(f"{directory}/*.yaml"):
        with open(path) as file:
            crd = yaml.safe_load(file)
        group, kind = crd["spec"]["group"], crd["spec"]["names"]["kind"]
        for version in crd["spec"]["versions"]:
            schemas[(f"{group}/{version['name']}", kind)] = strict(version["schema"]["openAPIV3Schema"])
    return schemas


def main(version, crd_directory, files):
    crds = crd_schemas(crd_directory)
    failures = 0
    for path in files:
        with open(path) as file:
            resources = [resource for resource in yaml.safe_load_all(file) if resource]
        for resource in resources:
            name = f"{resource['kind']}/{resource['metadata']['name']}"
            try:
                key = (resource["apiVersion"], resource["kind"])
                if key in crds:
                    jsonschema.validate(resource, crds[key])
                else:
                    kubernetes_validate.validate(resource, version, strict=True)
                print(f"ok   {path} {name}")
            except (jsonschema.ValidationError, kubernetes_validate.ValidationError) as error:
                failures += 1
                print(f"FAIL {path} {name}: {error.message} at {'/'.join(map(str, error.absolute_path))}")
            except kubernetes_validate.SchemaNotFoundError:
                failures += 1
                print(f"FAIL {path} {name}: no schema for {resource['apiVersion']} {resource['kind']}")
        if not resources:
            failures += 1
            print(f"FAIL {path}: no resources")
    print(f"{failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2], sys.argv[3:]))
