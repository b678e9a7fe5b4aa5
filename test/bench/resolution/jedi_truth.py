"""Protocol R's ground truth for Python: Jedi's goto (follow_imports=True), the definition an editor's
"Go to Definition" reaches. Reads {"root": DIR, "queries": [{"file", "line", "column"}]} (0-based)
on stdin, writes one JSON list on stdout: per query, the definitions [{"path", "line", "column"}]
(0-based; path absolute, or null for builtins and compiled modules). One process per repository.
The project's sys.path is the repository root, plus src/ where the repository has one."""
import json
import os
import sys

import jedi


def main():
    req = json.load(sys.stdin)
    root = req["root"]
    # A src/ layout is importable as it is once the package is installed (pip install -e .).
    src = os.path.join(root, "src")
    project = jedi.Project(root, added_sys_path=[src] if os.path.isdir(src) else [])
    scripts = {}
    out = []
    for q in req["queries"]:
        path = os.path.join(root, q["file"])
        script = scripts.get(path)
        if script is None:
            with open(path, encoding="utf-8") as f:
                script = jedi.Script(f.read(), path=path, project=project)
            scripts = {path: script}  # one file's script at a time: queries come grouped by file
        try:
            names = script.goto(q["line"] + 1, q["column"], follow_imports=True)
        except Exception as e:  # a Jedi failure is "no definition", reported
            sys.stderr.write(f"jedi: {q['file']}:{q['line'] + 1}:{q['column']}: {e}\n")
            names = []
        defs = []
        for n in names:
            p = None if n.in_builtin_module() or n.module_path is None else str(n.module_path)
            defs.append({"path": p, "line": (n.line or 1) - 1, "column": n.column or 0, "type": n.type})
        out.append(defs)
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
