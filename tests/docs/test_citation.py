"""LICENSE, CITATION.cff and the version: what a researcher reuses and cites agrees with itself.

``cffconvert --validate`` cannot be installed beside Jupyter (it pins ``jsonschema<4``), so
CITATION.cff is validated here against the Citation File Format 1.2.0 JSON schema,
``cff-1.2.0.schema.json`` beside this file: ``cffconvert/schemas/1.2.0/schema.json`` from the
``cffconvert`` 2.0.0 wheel on PyPI (the schema of github.com/citation-file-format, CC-BY-4.0),
committed so that nothing is downloaded when the test runs.
"""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from workbench.__main__ import _pyproject_version
from workbench.figures.papers import PAPERS

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = Path(__file__).with_name("cff-1.2.0.schema.json")


@pytest.fixture(scope="module")
def citation() -> dict:
    # CFF is YAML 1.2; safe_load keeps ``version: 0.1.0`` a string and dates out of it
    return yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))


def test_citation_is_valid_cff_1_2_0(citation):
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert citation["cff-version"] == "1.2.0"
    errors = sorted(jsonschema.Draft7Validator(schema).iter_errors(citation), key=str)
    assert not errors, "\n".join(f"{list(e.path)}: {e.message}" for e in errors)


def test_schema_rejects_a_broken_citation(citation):
    """The validation can fail: a reference without authors is not CFF."""
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    broken = {**citation, "references": [{k: v for k, v in citation["references"][0].items()
                                          if k != "authors"}]}
    assert not jsonschema.Draft7Validator(schema).is_valid(broken)


def _names(authors: list[dict]) -> str:
    return ", ".join(" ".join(a[k] for k in ("given-names", "name-particle", "family-names")
                              if k in a) for a in authors)


def test_references_are_the_four_papers_as_cited_in_code(citation):
    refs = citation["references"]
    assert len(refs) == len(PAPERS) == 4
    for ref, paper in zip(refs, PAPERS.values(), strict=True):
        assert ref["title"] == paper.title
        assert ref["year"] == paper.year
        assert _names(ref["authors"]) == paper.authors
        ids = [ref.get("doi", "")] + [i["value"] for i in ref.get("identifiers", [])]
        assert any(i and i in paper.ids for i in ids), (paper.key, ids)


def test_licence_and_version_agree_everywhere(citation):
    from workbench import __version__

    text = (ROOT / "LICENSE").read_text(encoding="utf-8")
    assert text.startswith("MIT License\n")
    assert "Copyright (c) 2026 Tokenisation Workbench contributors" in text
    assert citation["license"] == "MIT"
    assert 'license = "MIT"' in (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert citation["version"] == _pyproject_version() == __version__
