// Raw fill-in-the-middle prompts for servers that do not apply a model's FIM template themselves
// (vLLM's /v1/completions rejects `suffix`; LM Studio and llama.cpp's /v1/completions ignore it).
// One template per model family, with the family's own special tokens, checked against each
// model's tokenizer and documentation:
//   Qwen2.5-Coder   <|fim_prefix|>…<|fim_suffix|>…<|fim_middle|>, repo level with <|repo_name|> and
//                   <|file_sep|> (Qwen2.5-Coder technical report, Figure 4; the model card)
//   DeepSeek-Coder  <｜fim▁begin｜>…<｜fim▁hole｜>…<｜fim▁end｜> (U+FF5C fullwidth vertical line, U+2581
//                   lower one eighth block), EOS <｜end▁of▁sentence｜>
//   StarCoder2      <repo_name>…<file_sep>path\ncode…<file_sep><fim_prefix>path\nprefix<fim_suffix>…<fim_middle>
//                   (StarCoder2 paper §5), EOS <|endoftext|>
//   CodeLlama       "<PRE> {prefix} <SUF>{suffix} <MID>" (the spaces belong to the format), EOS <EOT>
//   Codestral       "[SUFFIX]{suffix}[PREFIX] {prefix}" (mistral-common's FIM encoding: suffix first), EOS </s>
// Families without repo-level tokens get the retrieved snippets as comments before the prefix,
// like the flat prompt. vscode-free.
import type { FimParts } from './types';

export type FimFamily = 'qwen' | 'deepseek' | 'starcoder2' | 'codellama' | 'codestral';
export const FIM_FAMILIES: readonly FimFamily[] = ['qwen', 'deepseek', 'starcoder2', 'codellama', 'codestral'];

export interface FimTemplate {
  family: FimFamily;
  label: string;
  /** The whole raw prompt, ending where the model writes the middle. */
  build(parts: FimParts): string;
  /** The family's end-of-text and format tokens: generation must stop at them. */
  stop: readonly string[];
}

const FB = '\uFF5C'; // ｜ fullwidth vertical line
const LB = '\u2581'; // ▁ lower one eighth block
const ds = (name: string): string => `<${FB}${name.replace(/ /g, LB)}${FB}>`;

/** The retrieved snippets as line comments with their paths, then the current file's path and prefix (the flat prompt's layout). */
export function commentedPrompt(parts: FimParts): string {
  const c = parts.comment;
  const commented = (text: string): string => text.split('\n').map((l) => (l.length ? `${c} ${l}` : c)).join('\n');
  const blocks = parts.context.map((f) => {
    const lines = f.startLine !== undefined && f.endLine !== undefined ? ` (lines ${f.startLine + 1}-${f.endLine + 1})` : '';
    return `${c} Path: ${f.filename}${lines}\n${commented(f.text)}\n`;
  });
  const intro = blocks.length ? `${c} Code from elsewhere in this repository:\n` : '';
  return `${intro}${blocks.join('')}${c} Path: ${parts.file}\n${parts.prefix}`;
}

const withNewline = (text: string): string => (text.endsWith('\n') ? text : `${text}\n`);
const repoName = (parts: FimParts): string => parts.repoName || 'repository';

export const FIM_TEMPLATES: Record<FimFamily, FimTemplate> = {
  qwen: {
    family: 'qwen',
    label: 'Qwen2.5-Coder',
    build: (p) => {
      const fim = `<|fim_prefix|>${p.prefix}<|fim_suffix|>${p.suffix}<|fim_middle|>`;
      if (!p.context.length) return fim;
      const files = p.context.map((f) => `<|file_sep|>${f.filename}\n${withNewline(f.text)}`).join('');
      return `<|repo_name|>${repoName(p)}\n${files}<|file_sep|>${p.file}\n${fim}`;
    },
    stop: ['<|endoftext|>', '<|file_sep|>', '<|fim_prefix|>', '<|fim_suffix|>', '<|fim_middle|>', '<|fim_pad|>', '<|repo_name|>', '<|im_start|>', '<|im_end|>'],
  },
  deepseek: {
    family: 'deepseek',
    label: 'DeepSeek-Coder',
    build: (p) => `${ds('fim begin')}${commentedPrompt(p)}${ds('fim hole')}${p.suffix}${ds('fim end')}`,
    stop: [ds('end of sentence'), ds('fim begin'), ds('fim hole'), ds('fim end'), '<|EOT|>'],
  },
  starcoder2: {
    family: 'starcoder2',
    label: 'StarCoder2',
    build: (p) => {
      const files = p.context.map((f) => `<file_sep>${f.filename}\n${withNewline(f.text)}`).join('');
      return `<repo_name>${repoName(p)}${files}<file_sep><fim_prefix>${p.file}\n${p.prefix}<fim_suffix>${p.suffix}<fim_middle>`;
    },
    stop: ['<|endoftext|>', '<file_sep>', '<fim_prefix>', '<fim_suffix>', '<fim_middle>', '<repo_name>'],
  },
  codellama: {
    family: 'codellama',
    label: 'CodeLlama',
    build: (p) => `<PRE> ${commentedPrompt(p)} <SUF>${p.suffix} <MID>`,
    stop: ['<EOT>', '<PRE>', '<SUF>', '<MID>'],
  },
  codestral: {
    family: 'codestral',
    label: 'Codestral',
    build: (p) => `[SUFFIX]${p.suffix}[PREFIX] ${commentedPrompt(p)}`,
    stop: ['</s>', '[INST]', '[PREFIX]', '[SUFFIX]', '[MIDDLE]'],
  },
};

/** The FIM family of a model name as servers report it (`Qwen/Qwen2.5-Coder-7B`, `deepseek-coder-6.7b-base.Q4_K_M.gguf`, …). */
export function familyOfModel(model: string): FimFamily | undefined {
  const m = model.toLowerCase();
  if (/codeqwen/.test(m)) return undefined; // CodeQwen1.5 uses StarCoder-style tokens without repo tokens: not one of ours
  if (/qwen[\d.]*[-_ ]?coder/.test(m)) return 'qwen';
  if (/deepseek[-_ ]?coder/.test(m)) return 'deepseek';
  if (/starcoder2/.test(m)) return 'starcoder2';
  if (/code[-_ ]?llama/.test(m)) return 'codellama';
  if (/codestral/.test(m)) return 'codestral';
  return undefined;
}

/** Cuts `text` at the first format token of the family (a server that does not stop at them passes them on). */
export function cutAtStopTokens(text: string, stop: readonly string[]): string {
  let end = text.length;
  for (const s of stop) {
    const i = text.indexOf(s);
    if (i >= 0 && i < end) end = i;
  }
  return text.slice(0, end);
}
