"""Writes the custom resources' schemas of this folder from the npm packages README.md names.

``python -m tests.deploy.schemas.vendor <unpacked package>/keda.sh/v1alpha1/ScaledObject.js …``: each such
module of a ``@kubernetes-models/…`` package (the versions that still carry their schema as a JSON
literal, ``const schema = {…};``) becomes ``<apiVersion with dots>.<kind>.json`` here, as it is.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def module_schema(source: str) -> tuple[str, dict]:
    """(schema id, schema) of one generated model module."""
    schema_id = re.search(r'^const schemaId = "([^"]+)";$', source, re.M)
    literal = re.search(r"^const schema = (\{.*?^\});$", source, re.S | re.M)
    if schema_id is None or literal is None:
        raise ValueError("no `const schemaId`/`const schema` literal: a package version that compiles its schemas")
    return schema_id.group(1), json.loads(literal.group(1))


def main(paths: list[str]) -> None:
    for path in paths:
        schema_id, schema = module_schema(Path(path).read_text(encoding="utf-8"))
        target = HERE / f"{schema_id}.json"
        target.write_text(json.dumps(schema, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(target)


if __name__ == "__main__":
    main(sys.argv[1:])
