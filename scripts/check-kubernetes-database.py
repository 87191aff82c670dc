"""Checks what `kustomize build` prints (read from the files named) for the product's database, which no schema can
say: every container that runs an entry reading the database takes DATABASE_URL as a file from the Secret
ramp-secrets, never in clear; every worker and API pod waits for its own image's migrations (an init container that
runs `db-migrate.js --check`); and every worker version has its migrations Job, ramp-migrate-<build ID>, of the
version's own image. Usage: check-kubernetes-database.py <manifests.yaml>...
"""
import re
import sys

import yaml

SECRET_DIR = "/run/secrets/ramp"
URL_FILE = f"{SECRET_DIR}/DATABASE_URL"
# The entries that open the database (src/entry): the processes, the account setup (a typed client), the migrations.
READS_DATABASE = {"worker.js", "api.js", "account-setup.js", "db-migrate.js"}
WAITS_FOR_MIGRATIONS = {"worker.js", "api.js"}


def entry_of(container):
    match = re.search(r"dist/src/entry/([\w-]+\.js)", " ".join(container.get("command", [])))
    return match.group(1) if match else None


def problems_of_container(pod, container):
    env = {variable["name"]: variable.get("value") for variable in container.get("env", [])}
    if "DATABASE_URL" in env:
        yield "DATABASE_URL in clear in the environment"
    if env.get("DATABASE_URL_FILE") != URL_FILE:
        yield f"DATABASE_URL_FILE is {env.get('DATABASE_URL_FILE')!r}, not {URL_FILE}"
    mount = next((m for m in container.get("volumeMounts", []) if m["mountPath"] == SECRET_DIR), None)
    volume = mount and next((v for v in pod.get("volumes", []) if v["name"] == mount["name"]), None)
    secret = (volume or {}).get("secret") or {}
    items = {item["key"]: item["path"] for item in secret.get("items", [])}
    if secret.get("secretName") != "ramp-secrets" or items.get("DATABASE_URL") != "DATABASE_URL":
        yield f"no DATABASE_URL item of the Secret ramp-secrets mounted at {SECRET_DIR}"


def check(path):
    with open(path) as file:
        resources = [resource for resource in yaml.safe_load_all(file) if resource]
    failures = []
    migration_jobs = {}
    workers = {}
    for resource in resources:
        pod = resource.get("spec", {}).get("template", {}).get("spec")
        if resource["kind"] not in ("Deployment", "Job") or not pod:
            continue
        name = f"{resource['kind']}/{resource['metadata']['name']}"
        containers = pod.get("initContainers", []) + pod["containers"]
        for container in containers:
            if entry_of(container) in READS_DATABASE:
                for problem in problems_of_container(pod, container):
                    failures.append(f"{name} {container['name']}: {problem}")
        main = pod["containers"][0]
        if resource["kind"] == "Deployment" and entry_of(main) in WAITS_FOR_MIGRATIONS:
            waits = [
                init
                for init in pod.get("initContainers", [])
                if entry_of(init) == "db-migrate.js" and "--check" in " ".join(init["command"])
            ]
            if not waits or any(init["image"] != main["image"] for init in waits):
                failures.append(f"{name}: no init container waiting for the migrations of {main['image']}")
        if resource["kind"] == "Deployment" and entry_of(main) == "worker.js":
            workers[resource["metadata"]["name"]] = main["image"]
        if resource["kind"] == "Job" and entry_of(main) == "db-migrate.js":
            if "--check" in main["command"]:
                failures.append(f"{name}: a migrations Job that only checks")
            migration_jobs[resource["metadata"]["name"]] = main["image"]
    if not workers:
        failures.append("no worker Deployment")
    for worker, image in workers.items():
        job = re.sub(r"^ramp-worker-", "ramp-migrate-", worker)
        if migration_jobs.get(job) != image:
            failures.append(f"Deployment/{worker}: no Job/{job} running the migrations of {image}")
    for failure in failures:
        print(f"FAIL {path} {failure}")
    if not failures:
        print(f"ok   {path}: database wiring of {len(workers)} worker version(s)")
    return len(failures)


if __name__ == "__main__":
    sys.exit(1 if sum(check(path) for path in sys.argv[1:]) else 0)
