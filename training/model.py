"""Encoders small enough for onnxruntime-node on one core (<= 3 ms per 200-token chunk).

- "static": token embedding table -> masked mean -> L2 norm (the shape of shared/models/build-static-onnx.js);
  a token's learned vector norm plays the role of its weight.
- "conv": the same table, then one residual mixing block over neighbouring tokens
  (depthwise conv of width `kernel` -> D x r -> GELU -> r x D, added to the token vectors), so
  "self . run" and "def run" differ. Trained by warm-starting from the static model.
- "asym": the static table for documents plus a second table of the same shape for queries (an
  asymmetric dual encoder). A query token then points at the tokens that tend to *follow* it in the
  next fragment ("what follows rather than what repeats", SelfRACG), which one shared table cannot
  express: there a token is always closest to itself. Trained by warm-starting from the static model
  (the query table starts as a copy of the document table at --static-steps); exported as
  `query_embedding`.
The static encoder may also carry a frozen *text prior* (train.py --text-prior): columns appended to
each token row, taken from the reference text model's vector for the piece's text.
Static and conv may add a query head: a D x D linear applied to the pooled vector of a *query* (code before the
cursor, a doc comment) before normalisation, so a query can point at what follows it rather than at
itself. The document side (sentence_embedding) never uses it; it is exported as `query_embedding`.
"""
import torch
import torch.nn as nn
import torch.nn.functional as F


class CodeEncoder(nn.Module):
    def __init__(self, vocab_size, dim=256, arch="static", kernel=5, query_head=False, mix_rank=128):
        super().__init__()
        self.arch = arch
        self.emb = nn.Embedding(vocab_size, dim, padding_idx=0)
        nn.init.normal_(self.emb.weight, std=0.1)
        with torch.no_grad():
            self.emb.weight[0].zero_()
        self.mixing = arch == "conv"  # switched off during the static warm-up phase of training
        if arch == "conv":
            self.kernel = kernel
            # depthwise taps, written as shifted sums (much faster than grouped Conv1d on CPU torch)
            self.taps = nn.Parameter(torch.zeros(kernel, dim))
            with torch.no_grad():
                self.taps[kernel // 2].fill_(1.0)
            self.down = nn.Linear(dim, mix_rank)
            self.up = nn.Linear(mix_rank, dim)
            nn.init.zeros_(self.up.weight)  # starts as the identity: warm-starts from the static model
            nn.init.zeros_(self.up.bias)
        # "asym": a query-side table, switched on (copied from emb) after the static warm-up
        self.qemb = nn.Embedding(vocab_size, dim, padding_idx=0) if arch == "asym" else None
        self.asym_on = False
        self.qhead = nn.Linear(dim, dim) if query_head else None
        if query_head:
            with torch.no_grad():
                self.qhead.weight.copy_(torch.eye(dim))
                self.qhead.bias.zero_()

    def set_text_prior(self, prior, scale):
        """A frozen part of the token table (train.py --text-prior): appended to each learned row,
        times one learned scale, so training sets how much the text meaning counts."""
        assert self.arch == "static" and self.qhead is None, "--text-prior is for the static encoder"
        self.register_buffer("prior", prior)
        self.prior_scale = nn.Parameter(torch.tensor(float(scale)))

    def full_table(self):
        w = self.emb.weight
        if getattr(self, "prior", None) is None:
            return w
        return torch.cat([w, self.prior_scale * self.prior], dim=-1)

    def embed_tokens(self, ids):
        h = self.emb(ids)
        if getattr(self, "prior", None) is None:
            return h
        return torch.cat([h, self.prior_scale * self.prior[ids]], dim=-1)

    def token_states(self, h, mask):
        if self.arch == "conv" and self.mixing:
            m = mask.unsqueeze(-1).to(h.dtype)
            hm = h * m
            S, r = h.shape[1], self.kernel // 2
            padded = F.pad(hm, (0, 0, r, r))
            c = sum(padded[:, k:k + S, :] * self.taps[k] for k in range(self.kernel))
            h = h + self.up(F.gelu(self.down(c)))
        return h

    def pooled(self, ids, mask, h=None):
        if h is None:
            h = self.embed_tokens(ids)
        h = self.token_states(h, mask)
        m = mask.unsqueeze(-1).to(h.dtype)
        return (h * m).sum(1) / m.sum(1).clamp(min=1.0)

    def switch_on_query_table(self):
        with torch.no_grad():
            self.qemb.weight.copy_(self.emb.weight)
        self.asym_on = True

    def forward(self, ids, mask, query=False):
        if query and self.asym_on:
            return F.normalize(self.pooled(ids, mask, h=self.qemb(ids)), dim=-1, eps=1e-9)
        p = self.pooled(ids, mask)
        if query and self.qhead is not None:
            p = self.qhead(p)
        return F.normalize(p, dim=-1, eps=1e-9)


def quantise_rows(w):
    """int8 rows with a per-row float scale."""
    scale = w.abs().amax(dim=1).clamp(min=1e-12) / 127.0
    return torch.round(w / scale.unsqueeze(1)).to(torch.int8), scale.unsqueeze(1).contiguous()


class ExportWrapper(nn.Module):
    """ONNX graph: int8 embedding rows with a per-row scale (4x smaller than float32)."""

    def __init__(self, enc: CodeEncoder):
        super().__init__()
        self.enc = enc
        q, scale = quantise_rows(enc.full_table().detach())
        self.register_buffer("q", q)
        self.register_buffer("scale", scale)
        self.asym = enc.qemb is not None
        if self.asym:
            qq, qscale = quantise_rows(enc.qemb.weight.detach())
            self.register_buffer("qq", qq)
            self.register_buffer("qscale", qscale)

    def dequantised_table(self):
        return self.q.float() * self.scale

    def forward(self, input_ids, attention_mask):
        h = self.q[input_ids].float() * self.scale[input_ids]
        p = self.enc.pooled(input_ids, attention_mask, h=h)
        doc = p / p.norm(dim=-1, keepdim=True).clamp(min=1e-9)
        if self.asym:
            hq = self.qq[input_ids].float() * self.qscale[input_ids]
            qp = self.enc.pooled(input_ids, attention_mask, h=hq)
            return doc, qp / qp.norm(dim=-1, keepdim=True).clamp(min=1e-9)
        if self.enc.qhead is None:
            return doc
        qp = self.enc.qhead(p)
        return doc, qp / qp.norm(dim=-1, keepdim=True).clamp(min=1e-9)


def export_onnx(enc, path):
    enc.eval()
    wrap = ExportWrapper(enc).eval()
    ids = torch.randint(2, enc.emb.num_embeddings, (2, 17))
    mask = torch.ones_like(ids)
    outputs = ["sentence_embedding"] + (["query_embedding"] if enc.qhead is not None or enc.qemb is not None else [])
    axes = {"input_ids": {0: "batch", 1: "seq"}, "attention_mask": {0: "batch", 1: "seq"}}
    for o in outputs:
        axes[o] = {0: "batch"}
    torch.onnx.export(wrap, (ids, mask), path, input_names=["input_ids", "attention_mask"], output_names=outputs,
                      dynamic_axes=axes, opset_version=17, do_constant_folding=True)
    return wrap
