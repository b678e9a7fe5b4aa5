"""Identifier-aware tokenizer for code, written as a Hugging Face `tokenizer.json` that the pure-JS
@huggingface/tokenizers (0.2.0) loads, plus an identical Python encoder used for training.

Text is split on whitespace, then into camelCase / snake_case / digit / single-symbol pieces
(`parseHTTPResponse_v2` -> parse, HTTP, Response, _, v, 2). Pieces are matched case-insensitively
against a lower-case WordPiece vocabulary built from the corpus: the tokenizer.json lists each entry in
its lower, Capitalised and UPPER spellings, all mapped to one id, because the HF pipeline lower-cases
(normaliser) before it pre-tokenises, which would erase the camelCase boundaries.
"""
import json
import re
from collections import Counter

# Same regex in Python and in tokenizer.json (JS). Every non-whitespace character matches one branch.
PIECE_PATTERN = r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+|[^\sA-Za-z0-9]"
PIECE_RE = re.compile(PIECE_PATTERN)
PAD, UNK = "[PAD]", "[UNK]"
PAD_ID, UNK_ID = 0, 1
CONT = "##"
MAX_CHARS_PER_WORD = 100


def pieces(text):
    return PIECE_RE.findall(text)


def build_vocab(texts, size, min_count=1):
    """Most frequent lower-cased pieces, plus single characters so any ASCII piece can be spelled."""
    counts = Counter()
    for t in texts:
        counts.update(p.lower() for p in PIECE_RE.findall(t))
    vocab = [PAD, UNK]
    singles = [chr(c) for c in range(33, 127) if not chr(c).isupper()]
    vocab += singles
    vocab += [CONT + c for c in "abcdefghijklmnopqrstuvwxyz0123456789"]
    have = set(vocab)
    for piece, count in counts.most_common():
        if len(vocab) >= size:
            break
        if count < min_count:
            break
        if piece not in have and len(piece) <= MAX_CHARS_PER_WORD:
            vocab.append(piece)
            have.add(piece)
    return vocab


class CodeTokenizer:
    def __init__(self, vocab):
        self.vocab = vocab
        self.ids = {}
        for i, tok in enumerate(vocab):
            for v in spellings(tok):
                self.ids.setdefault(v, i)
        self.cache = {}

    def _wordpiece(self, word):
        got = self.cache.get(word)
        if got is not None:
            return got
        if len(word) > MAX_CHARS_PER_WORD:
            out = [UNK_ID]
        else:
            out, start = [], 0
            while start < len(word):
                end, cur = len(word), None
                while start < end:
                    sub = word[start:end]
                    if start > 0:
                        sub = CONT + sub
                    if sub in self.ids:
                        cur = self.ids[sub]
                        break
                    end -= 1
                if cur is None:
                    out = [UNK_ID]
                    break
                out.append(cur)
                start = end
        self.cache[word] = out
        return out

    def encode(self, text):
        ids = []
        for p in PIECE_RE.findall(text):
            ids.extend(self._wordpiece(p))
        return ids

    def to_hf_json(self):
        hf_vocab = {}
        for i, tok in enumerate(self.vocab):
            for v in spellings(tok):
                hf_vocab.setdefault(v, i)
        return {
            "version": "1.0",
            "truncation": None,
            "padding": None,
            "added_tokens": [],
            "normalizer": None,
            "pre_tokenizer": {
                "type": "Sequence",
                "pretokenizers": [
                    {"type": "WhitespaceSplit"},
                    {"type": "Split", "pattern": {"Regex": PIECE_PATTERN}, "behavior": "Isolated", "invert": False},
                ],
            },
            "post_processor": None,
            "decoder": {"type": "WordPiece", "prefix": CONT, "cleanup": False},
            "model": {
                "type": "WordPiece",
                "unk_token": UNK,
                "continuing_subword_prefix": CONT,
                "max_input_chars_per_word": MAX_CHARS_PER_WORD,
                "vocab": hf_vocab,
            },
        }


def spellings(tok):
    """The spellings the piece regex can produce for one lower-case vocabulary entry."""
    if tok in (PAD, UNK):
        return [tok]
    if tok.startswith(CONT):
        body = tok[len(CONT):]
        return [tok, CONT + body.upper()]
    return [tok, tok[:1].upper() + tok[1:], tok.upper()]


def save(tokenizer, out_dir):
    with open(f"{out_dir}/tokenizer.json", "w") as f:
        json.dump(tokenizer.to_hf_json(), f, ensure_ascii=False)
    with open(f"{out_dir}/tokenizer_config.json", "w") as f:
        json.dump({"tokenizer_class": "PreTrainedTokenizer", "model_max_length": 512, "unk_token": UNK, "pad_token": PAD}, f)
