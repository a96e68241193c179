"""SARIF 2.1.0 output, for code-scanning tools."""

from __future__ import annotations

from harp_ir import __version__, hints

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"


def report(found: list, errors: list[str]) -> dict:
    rules = [{
        "id": h.id, "name": h.name,
        "shortDescription": {"text": h.name.replace("-", " ")},
        "fullDescription": {"text": f"Finds {h.finds}."},
        "help": {"text": f"Refactoring: {h.refactoring}. Documentation: {h.doc}.",
                 "markdown": h.markdown()},
        "defaultConfiguration": {"level": "warning"},
    } for h in hints.HINTS]
    index = {h.id: i for i, h in enumerate(hints.HINTS)}
    results = [{
        "ruleId": h.id, "ruleIndex": index[h.id], "level": "warning",
        "message": {"text": h.message},
        "locations": [{"physicalLocation": {
            "artifactLocation": {"uri": h.span.file},
            "region": {"startLine": h.span.line, "startColumn": h.span.col,
                       "endLine": h.span.end_line, "endColumn": h.span.end_col},
        }}],
        **({"relatedLocations": [{"id": i, "physicalLocation": {
            "artifactLocation": {"uri": r.file},
            "region": {"startLine": r.line, "startColumn": r.col, "endLine": r.end_line,
                       "endColumn": r.end_col}}} for i, r in enumerate(h.related)]}
           if h.related else {}),
        "properties": {"assumptions": [vars(a) for a in h.assumptions], "fix": h.fix,
                       # in a notebook the region's lines are those of this cell (1-based)
                       **({"cell": h.span.cell} if h.span.cell is not None else {})},
    } for h in found]
    run = {
        "tool": {"driver": {"name": "harp", "version": __version__, "rules": rules}},
        "results": results,
        "invocations": [{
            "executionSuccessful": not errors,
            "toolExecutionNotifications": [{"level": "error", "message": {"text": e}}
                                           for e in errors],
        }],
    }
    return {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
