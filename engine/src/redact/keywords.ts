// The rules' keyword pre-filter in one pass over the text (Aho–Corasick automaton over ASCII,
// case-insensitive), instead of one substring search per keyword and rule: every chunk of every
// indexed file goes through it. Keywords are ASCII (gitleaks' are); other characters restart.

const ALPHABET = 128;

export class KeywordIndex {
  private readonly next: Int32Array;
  /** Per automaton state, the keyword ids that end there (through its suffix links too). */
  private readonly outputs: number[][];

  constructor(readonly keywords: readonly string[]) {
    const trie: number[][] = [[]];
    const ends: number[][] = [[]];
    keywords.forEach((word, id) => {
      let s = 0;
      for (const ch of word.toLowerCase()) {
        const c = ch.charCodeAt(0);
        if (c >= ALPHABET) throw new Error(`keyword ${JSON.stringify(word)} is not ASCII`);
        if (trie[s][c] === undefined) {
          trie[s][c] = trie.length;
          trie.push([]);
          ends.push([]);
        }
        s = trie[s][c];
      }
      ends[s].push(id);
    });
    this.next = new Int32Array(trie.length * ALPHABET);
    this.outputs = ends;
    const fail = new Int32Array(trie.length);
    const queue: number[] = [];
    for (let c = 0; c < ALPHABET; c++) {
      const t = trie[0][c];
      this.next[c] = t ?? 0;
      if (t !== undefined) queue.push(t);
    }
    for (let q = 0; q < queue.length; q++) {
      const s = queue[q];
      this.outputs[s] = [...ends[s], ...this.outputs[fail[s]]];
      for (let c = 0; c < ALPHABET; c++) {
        const t = trie[s][c];
        if (t === undefined) this.next[s * ALPHABET + c] = this.next[fail[s] * ALPHABET + c];
        else {
          fail[t] = this.next[fail[s] * ALPHABET + c];
          this.next[s * ALPHABET + c] = t;
          queue.push(t);
        }
      }
    }
  }

  /** Which keywords occur in `text`, case-insensitively: a flag per keyword id. */
  present(text: string): Uint8Array {
    const found = new Uint8Array(this.keywords.length);
    const next = this.next;
    let s = 0;
    for (let i = 0; i < text.length; i++) {
      let c = text.charCodeAt(i);
      if (c >= ALPHABET) {
        s = 0;
        continue;
      }
      if (c >= 65 && c <= 90) c += 32;
      s = next[s * ALPHABET + c];
      const out = this.outputs[s];
      for (let k = 0; k < out.length; k++) found[out[k]] = 1;
    }
    return found;
  }
}
