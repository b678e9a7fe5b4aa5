"""Training pairs mined from the corpus (one list per source package, so a batch drawn from one source
gets in-repository negatives):

- next fragment (SelfRACG): query = the 10..60 lines before a cursor line L, positive = lines L..L+19,
  hard negative = another 20-line fragment of the same file that does not overlap the query window
  (the fragment right after the positive half of the time, as in the benchmark's corpus);
- doc -> code (CodeRAG / CoRet): query = a function's doc comment, positive = path + signature + body
  with the doc comment removed, hard negative = another documented function of the same file or source;
- definition -> call site (CoRet's call-graph pairs): query = a function's first 20 lines, positive = a
  line calling it (+-2 lines), negatives = call sites of other functions of the same source.
"""
import random
import re

FRAG = 20
PY_DEF = re.compile(r"^(\s*)(async\s+def|def|class)\s+\w+")
PY_DOC_OPEN = re.compile(r'^\s*[rRuUbB]?("""|\'\'\')')
JS_DOC_OPEN = re.compile(r"^\s*/\*\*")
JS_DECL = re.compile(r"^\s*(export\s+)?(default\s+)?(declare\s+)?(public\s+|private\s+|protected\s+|static\s+|readonly\s+|abstract\s+|async\s+|get\s+|set\s+)*"
                     r"(function\*?\s+\w+|class\s+\w+|interface\s+\w+|type\s+\w+|const\s+\w+|let\s+\w+|enum\s+\w+|[A-Za-z_$][\w$]*\s*[(<:=])")


def split_lines(text):
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    return [l[:-1] if l.endswith("\r") else l for l in lines]


def next_fragment_pairs(lines, rng, per_lines=30):
    n = len(lines)
    out = []
    if n < 40:
        return out
    for _ in range(max(1, n // per_lines)):
        L = rng.randrange(10, n - 5)
        if not lines[L].strip() or not lines[L - 1].strip():
            continue
        k = rng.randint(10, 60)
        q0 = max(0, L - k)
        pos = (L, min(n, L + FRAG))
        # hard negative: same file, outside [q0, L+FRAG)
        if rng.random() < 0.5 and L + FRAG < n:
            neg = (L + FRAG, min(n, L + 2 * FRAG))
        else:
            cands = [s for s in range(0, n, FRAG) if s + FRAG <= q0 or s >= L + FRAG]
            if not cands:
                continue
            s = rng.choice(cands)
            neg = (s, min(n, s + FRAG))
        out.append(((q0, L), pos, neg))
    return out


def _clean_doc(doc_lines):
    text = "\n".join(doc_lines)
    text = re.sub(r"^\s*(/\*\*|\*/|\*|\"\"\"|''')\s?", "", text, flags=re.M)
    text = text.replace('"""', " ").replace("'''", " ").replace("*/", " ")
    return text.strip()


def doc_pairs(lines, lang):
    """(doc text, code text) for documented functions/classes/declarations of one file."""
    out = []
    n = len(lines)
    if lang == "python":
        for i, line in enumerate(lines):
            if not PY_DEF.match(line):
                continue
            j = i
            while j < n and not lines[j].rstrip().endswith(":") and j < i + 10:
                j += 1
            if j + 1 >= n or not PY_DOC_OPEN.match(lines[j + 1]):
                continue
            quote = PY_DOC_OPEN.match(lines[j + 1]).group(1)
            k = j + 1
            if lines[k].count(quote) < 2:
                k += 1
                while k < n and quote not in lines[k]:
                    k += 1
            doc = _clean_doc(lines[j + 1:k + 1])
            body = lines[i:j + 1] + lines[k + 1:k + 1 + FRAG - (j + 1 - i)]
            if len(doc) >= 20 and len(body) >= 3:
                out.append((doc, "\n".join(body)))
    else:
        i = 0
        while i < n:
            if JS_DOC_OPEN.match(lines[i]):
                k = i
                while k < n and "*/" not in lines[k]:
                    k += 1
                if k + 1 < n and JS_DECL.match(lines[k + 1]):
                    doc = _clean_doc(lines[i:k + 1])
                    doc = re.sub(r"@\w+\s*(\{[^}]*\})?", " ", doc)  # tags carry little meaning; keep their text
                    body = lines[k + 1:k + 1 + FRAG]
                    if len(doc) >= 20 and len(body) >= 2:
                        out.append((doc, "\n".join(body)))
                i = k + 1
            else:
                i += 1
    return out


DEF_NAME = re.compile(r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:def|function\*?)\s+([A-Za-z_$][\w$]*)\s*[(<]"
                      r"|^\s*(?:public\s+|private\s+|protected\s+|static\s+|async\s+)*([A-Za-z_$][\w$]*)\s*\([^)]*\)\s*(?::[^{]*)?\{\s*$"
                      r"|^\s*(?:export\s+)?const\s+([A-Za-z_$][\w$]*)\s*=\s*(?:async\s+)?(?:\([^)]*\)|[A-Za-z_$][\w$]*)\s*=>")
CALL_NAME = re.compile(r"([A-Za-z_$][\w$]*)\s*\(")
NOT_NAMES = {"if", "for", "while", "switch", "catch", "function", "return", "super", "constructor", "print", "len",
             "isinstance", "range", "str", "int", "list", "dict", "tuple", "set", "type", "require"}


def call_site_pairs(src_files, rng, max_per_name=3):
    """Definition -> call site (CoRet's call-graph pairs) within one source package.
    src_files: list of (file index, lines). Returns (fi, def span, fj, call span) with spans as line ranges:
    the definition's first 20 lines, and the call line with 2 lines of context either side."""
    defs, calls = [], {}
    for fi, lines in src_files:
        for i, line in enumerate(lines):
            m = DEF_NAME.match(line)
            if m:
                name = next(g for g in m.groups() if g)
                if len(name) >= 5 and name not in NOT_NAMES:
                    defs.append((fi, i, name))
                continue
            for name in set(CALL_NAME.findall(line)):
                if len(name) >= 5 and name not in NOT_NAMES:
                    calls.setdefault(name, []).append((fi, i))
    n_lines = {fi: len(lines) for fi, lines in src_files}
    out = []
    for fi, i, name in defs:
        sites = calls.get(name, [])
        if not sites or len(sites) > 30:  # very common names say little about the definition
            continue
        for fj, k in rng.sample(sites, min(max_per_name, len(sites))):
            if fj == fi and i <= k < i + FRAG:
                continue  # a recursive call inside the definition itself
            out.append((fi, (i, min(n_lines[fi], i + FRAG)), fj, (max(0, k - 2), min(n_lines[fj], k + 3))))
    return out
