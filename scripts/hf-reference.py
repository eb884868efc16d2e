#!/usr/bin/env python3
"""Independent reference for the Hugging Face import (not needed by CI): builds small random Qwen2 checkpoints with
transformers itself, a byte-level BPE tokenizer with the `tokenizers` library and a Qwen-style chat template, saves them
with save_pretrained (f32 and bf16, single-file and sharded safetensors), and records what transformers computes:
logits, greedy continuations, tokenizer ids and apply_chat_template output. The TypeScript tests compare against these.

Usage (venv outside the repo):
  python3 -m venv /tmp/venv && /tmp/venv/bin/pip install torch transformers tokenizers peft
  /tmp/venv/bin/python scripts/hf-reference.py --out fixtures/hf
Re-running with the same versions rewrites byte-identical fixtures (fixed seeds, deterministic CPU kernels).

Export check (the other direction): the lab writes models in HF / PEFT format, transformers and peft load them, and
the logits they compute become fixtures the TypeScript tests compare with:
  npx tsx scripts/hf-export-cases.ts /tmp/hf-exports
  /tmp/venv/bin/python scripts/hf-reference.py --check-exports /tmp/hf-exports --out fixtures/hf
"""
import hashlib
import argparse
import json
import os
import shutil

import torch
import tokenizers
import transformers
from safetensors.torch import save_file
from tokenizers import Regex, Tokenizer, decoders, models, normalizers, pre_tokenizers, trainers
from transformers import AutoModelForCausalLM, AutoTokenizer, PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM

# Qwen2's pre-tokenizer split (tokenizer.json of every Qwen2 / Qwen2.5 model).
QWEN2_SPLIT = (
    r"(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+"
)
SPECIALS = ["<|endoftext|>", "<|im_start|>", "<|im_end|>"]
DEFAULT_SYSTEM = "You are Qwen, created by Alibaba Cloud. You are a helpful assistant."

# The Qwen2.5(-Coder)-Instruct chat template, tool calls included.
CHAT_TEMPLATE = (
    "{%- if tools %}\n"
    "    {{- '<|im_start|>system\\n' }}\n"
    "    {%- if messages[0]['role'] == 'system' %}\n"
    "        {{- messages[0]['content'] }}\n"
    "    {%- else %}\n"
    "        {{- '" + DEFAULT_SYSTEM + "' }}\n"
    "    {%- endif %}\n"
    "    {{- \"\\n\\n# Tools\\n\\nYou may call one or more functions to assist with the user query.\\n\\n"
    "You are provided with function signatures within <tools></tools> XML tags:\\n<tools>\" }}\n"
    "    {%- for tool in tools %}\n"
    "        {{- \"\\n\" }}\n"
    "        {{- tool | tojson }}\n"
    "    {%- endfor %}\n"
    "    {{- \"\\n</tools>\\n\\nFor each function call, return a json object with function name and arguments within "
    "<tool_call></tool_call> XML tags:\\n<tool_call>\\n{\\\"name\\\": <function-name>, \\\"arguments\\\": "
    "<args-json-object>}\\n</tool_call><|im_end|>\\n\" }}\n"
    "{%- else %}\n"
    "    {%- if messages[0]['role'] == 'system' %}\n"
    "        {{- '<|im_start|>system\\n' + messages[0]['content'] + '<|im_end|>\\n' }}\n"
    "    {%- else %}\n"
    "        {{- '<|im_start|>system\\n" + DEFAULT_SYSTEM + "<|im_end|>\\n' }}\n"
    "    {%- endif %}\n"
    "{%- endif %}\n"
    "{%- for message in messages %}\n"
    "    {%- if (message.role == \"user\") or (message.role == \"system\" and not loop.first) or "
    "(message.role == \"assistant\" and not message.tool_calls) %}\n"
    "        {{- '<|im_start|>' + message.role + '\\n' + message.content + '<|im_end|>' + '\\n' }}\n"
    "    {%- elif message.role == \"assistant\" %}\n"
    "        {{- '<|im_start|>' + message.role }}\n"
    "        {%- if message.content %}\n"
    "            {{- '\\n' + message.content }}\n"
    "        {%- endif %}\n"
    "        {%- for tool_call in message.tool_calls %}\n"
    "            {%- if tool_call.function is defined %}\n"
    "                {%- set tool_call = tool_call.function %}\n"
    "            {%- endif %}\n"
    "            {{- '\\n<tool_call>\\n{\"name\": \"' }}\n"
    "            {{- tool_call.name }}\n"
    "            {{- '\", \"arguments\": ' }}\n"
    "            {{- tool_call.arguments | tojson }}\n"
    "            {{- '}\\n</tool_call>' }}\n"
    "        {%- endfor %}\n"
    "        {{- '<|im_end|>\\n' }}\n"
    "    {%- elif message.role == \"tool\" %}\n"
    "        {%- if (loop.index0 == 0) or (messages[loop.index0 - 1].role != \"tool\") %}\n"
    "            {{- '<|im_start|>user' }}\n"
    "        {%- endif %}\n"
    "        {{- '\\n<tool_response>\\n' }}\n"
    "        {{- message.content }}\n"
    "        {{- '\\n</tool_response>' }}\n"
    "        {%- if loop.last or (messages[loop.index0 + 1].role != \"tool\") %}\n"
    "            {{- '<|im_end|>\\n' }}\n"
    "        {%- endif %}\n"
    "    {%- endif %}\n"
    "{%- endfor %}\n"
    "{%- if add_generation_prompt %}\n"
    "    {{- '<|im_start|>assistant\\n' }}\n"
    "{%- endif %}\n"
)

CORPUS_CODE = [
    "def add(a, b):\n    return a + b\n",
    "def is_even(n: int) -> bool:\n    \"\"\"Return True when n is even.\"\"\"\n    return n % 2 == 0\n",
    "def reverse_words(s):\n    return ' '.join(reversed(s.split()))\n",
    "assert add(2, 3) == 5\nassert is_even(4) == True\nassert reverse_words('a b') == 'b a'\n",
    "for i in range(10):\n    if i % 3 == 0:\n        print(i)\n",
    "class Stack:\n    def __init__(self):\n        self.items = []\n\n    def push(self, x):\n        self.items.append(x)\n",
    "Write a Python function that counts the vowels in a string. It's easy, isn't it? We'll see.\n",
    "Les élèves écrivent du code. 数字 123 and émojis 🙂 too.\n",
]

TOKENIZER_TEXTS = [
    "def add(a, b):\n    return a + b\n",
    "assert reverse_words('hello world') == 'world hello'",
    "  leading spaces, trailing spaces   \n\n\ttabs\tand\r\nCRLF",
    "It's THEY'LL we'd I'M numbers 1234567 3.14159",
    "Unicode: café, naïve, 数字, 🙂👍, e\u0301 (combining)",
    "<|im_start|>user\nhi<|im_end|>\n<|im_start|>assistant\n",
    "",
]

CONVERSATIONS = [
    {"messages": [{"role": "user", "content": "Write a function add(a, b)."}], "add_generation_prompt": True},
    {
        "messages": [
            {"role": "system", "content": "You are a careful Python tester."},
            {"role": "user", "content": "Write asserts for is_even."},
            {"role": "assistant", "content": "```python\nassert is_even(2) == True\n```"},
            {"role": "user", "content": "More, please."},
        ],
        "add_generation_prompt": True,
    },
    {
        "messages": [
            {"role": "user", "content": "Café ☕ and 数字?"},
            {"role": "assistant", "content": "Yes."},
        ],
        "add_generation_prompt": False,
    },
    {
        "messages": [
            {"role": "user", "content": "What is 2 + 3?"},
            {"role": "assistant", "content": "", "tool_calls": [{"type": "function", "function": {"name": "add", "arguments": {"a": 2, "b": 3}}}]},
            {"role": "tool", "content": "5"},
        ],
        "tools": [
            {
                "type": "function",
                "function": {
                    "name": "add",
                    "description": "Add two integers.",
                    "parameters": {"type": "object", "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}}, "required": ["a", "b"]},
                },
            }
        ],
        "add_generation_prompt": True,
    },
]

LOGIT_PROMPTS = [
    "def add(a, b):\n    return",
    "<|im_start|>user\nWrite is_even.<|im_end|>\n<|im_start|>assistant\n",
    "assert reverse_words('a b') ==",
    "x",
]

MODELS = {
    # name: (config overrides, dtype, shard size or None)
    "qwen2-tied-gqa": dict(
        hidden_size=64, intermediate_size=160, num_hidden_layers=2, num_attention_heads=4, num_key_value_heads=2,
        tie_word_embeddings=True, rope_theta=1_000_000.0, rms_norm_eps=1e-6, seed=11,
    ),
    "qwen2-untied-mqa": dict(
        hidden_size=48, intermediate_size=96, num_hidden_layers=3, num_attention_heads=6, num_key_value_heads=1,
        tie_word_embeddings=False, rope_theta=10_000.0, rms_norm_eps=1e-5, seed=12,
    ),
}
VARIANTS = [
    # (model, dtype, max_shard_size or None)
    ("qwen2-tied-gqa", "f32", None),
    ("qwen2-tied-gqa", "bf16", None),
    ("qwen2-untied-mqa", "f32", "60KB"),
    ("qwen2-untied-mqa", "bf16", "40KB"),
    ("qwen2-untied-mqa", "f16", None),
]


def train_tokenizer() -> Tokenizer:
    tok = Tokenizer(models.BPE(byte_fallback=False, ignore_merges=False))
    tok.normalizer = normalizers.NFC()
    tok.pre_tokenizer = pre_tokenizers.Sequence(
        [
            pre_tokenizers.Split(Regex(QWEN2_SPLIT), behavior="isolated", invert=False),
            pre_tokenizers.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False),
        ]
    )
    tok.decoder = decoders.ByteLevel(add_prefix_space=False, trim_offsets=False, use_regex=False)
    trainer = trainers.BpeTrainer(vocab_size=400, min_frequency=2, initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(CORPUS_CODE * 8, trainer=trainer)
    # Specials after the learned vocabulary, as in Qwen (151643+).
    tok.add_special_tokens(SPECIALS)
    return tok


def hf_tokenizer(tok: Tokenizer) -> PreTrainedTokenizerFast:
    return PreTrainedTokenizerFast(
        tokenizer_object=tok,
        eos_token="<|im_end|>",
        pad_token="<|endoftext|>",
        unk_token=None,
        bos_token=None,
        additional_special_tokens=["<|im_start|>", "<|im_end|>"],
        chat_template=CHAT_TEMPLATE,
        model_max_length=32768,
        clean_up_tokenization_spaces=False,
        split_special_tokens=False,
        errors="replace",
    )


def build_model(name: str, vocab: int) -> Qwen2ForCausalLM:
    spec = dict(MODELS[name])
    seed = spec.pop("seed")
    torch.manual_seed(seed)
    cfg = Qwen2Config(vocab_size=vocab, max_position_embeddings=256, initializer_range=0.02, bos_token_id=None, eos_token_id=vocab - 1, **spec)
    model = Qwen2ForCausalLM(cfg).float().eval()
    # Default init leaves norms at 1 and biases at 0 and logits nearly flat; spread everything so that every
    # parameter matters and greedy argmaxes are decided by clear margins.
    g = torch.Generator().manual_seed(seed + 1000)
    with torch.no_grad():
        for pname, p in model.named_parameters():
            if "norm" in pname:
                p.copy_(1.0 + 0.2 * torch.randn(p.shape, generator=g))
            elif pname.endswith("bias"):
                p.copy_(0.3 * torch.randn(p.shape, generator=g))
            elif "embed_tokens" in pname:
                p.copy_(1.0 * torch.randn(p.shape, generator=g))
            else:
                fan_in = p.shape[1]
                p.copy_(torch.randn(p.shape, generator=g) * (1.5 / fan_in**0.5))
    return model


def record_model(dirpath: str, model: Qwen2ForCausalLM, tok: PreTrainedTokenizerFast, compute_dtype: torch.dtype) -> dict:
    """Logits of single prompts and of a left-padded batch, and greedy continuations, in the given compute dtype."""
    model = model.to(compute_dtype)
    tensors = {}
    prompts = []
    with torch.no_grad():
        for i, text in enumerate(LOGIT_PROMPTS):
            ids = tok(text, add_special_tokens=False)["input_ids"]
            out = model(torch.tensor([ids]))
            tensors[f"prompt{i}.logits"] = out.logits[0].float().contiguous()
            gen = model.generate(
                torch.tensor([ids]), attention_mask=torch.ones(1, len(ids), dtype=torch.long), max_new_tokens=12,
                do_sample=False, output_scores=True, return_dict_in_generate=True, pad_token_id=tok.pad_token_id, eos_token_id=None,
            )
            new = gen.sequences[0, len(ids):].tolist()
            margins = []
            for s in gen.scores:
                top = torch.topk(s[0].float(), 2).values
                margins.append(float(top[0] - top[1]))
            prompts.append({"text": text, "ids": ids, "greedy": new, "greedy_min_margin": min(margins)})
        # Left-padded batch of prompts 0 and 2: positions count from each row's first real token.
        batch_ids = [prompts[0]["ids"], prompts[2]["ids"]]
        P = max(len(x) for x in batch_ids)
        pad = tok.pad_token_id
        inp = torch.tensor([[pad] * (P - len(x)) + x for x in batch_ids])
        mask = torch.tensor([[0] * (P - len(x)) + [1] * len(x) for x in batch_ids])
        pos = (mask.cumsum(-1) - 1).clamp(min=0)
        out = model(inp, attention_mask=mask, position_ids=pos)
        tensors["batch.logits"] = out.logits.float().contiguous()
        gen = model.generate(inp, attention_mask=mask, max_new_tokens=8, do_sample=False, pad_token_id=pad, eos_token_id=None)
        batch = {"prompts": [0, 2], "padded": inp.tolist(), "mask": mask.tolist(), "greedy": gen[:, P:].tolist()}
    save_file(tensors, os.path.join(dirpath, "reference-logits.safetensors"))
    return {"prompts": prompts, "batch": batch}


def check_exports(src: str, out: str) -> None:
    """Loads every case the lab exported (full models with transformers, adapters with peft on their fixture base),
    refusing missing or unexpected tensors, and records the files' sha256 and the logits of the case's prompts."""
    from peft import PeftModel
    from safetensors.torch import load_file

    with open(os.path.join(src, "cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    dest = os.path.join(out, "exports")
    if os.path.isdir(dest):
        shutil.rmtree(dest)
    os.makedirs(dest)
    record = {"versions": {"torch": torch.__version__, "transformers": transformers.__version__, "peft": __import__("peft").__version__}, "cases": {}}
    for name, case in sorted(cases.items()):
        cdir = os.path.join(src, name)
        if case.get("base"):
            base = AutoModelForCausalLM.from_pretrained(os.path.join(out, case["base"]), dtype=torch.float32)
            model = PeftModel.from_pretrained(base, cdir).eval()
            saved = load_file(os.path.join(cdir, "adapter_model.safetensors"))
            loaded = {n.replace(".default", ""): p for n, p in model.named_parameters() if "lora_" in n}
            assert sorted(loaded) == sorted(saved), f"{name}: peft parameters {sorted(loaded)[:3]} differ from the file's {sorted(saved)[:3]}"
            for k, v in saved.items():
                assert torch.equal(loaded[k].detach(), v), f"{name}: {k} was not loaded as saved"
        else:
            model, info = AutoModelForCausalLM.from_pretrained(cdir, dtype=torch.float32, output_loading_info=True)
            bad = {k: v for k, v in info.items() if v}
            assert not bad, f"{name}: transformers reports {bad}"
            model.eval()
        tensors = {}
        with torch.no_grad():
            for i, ids in enumerate(case["prompts"]):
                tensors[f"prompt{i}.logits"] = model(torch.tensor([ids])).logits[0].float().contiguous()
        save_file(tensors, os.path.join(dest, f"{name}.safetensors"))
        files = {}
        for fname in sorted(os.listdir(cdir)):
            with open(os.path.join(cdir, fname), "rb") as f:
                files[fname] = hashlib.sha256(f.read()).hexdigest()
        record["cases"][name] = {"base": case.get("base"), "prompts": case["prompts"], "sha256": files}
        if "tokenizer.json" in files:
            tok = AutoTokenizer.from_pretrained(cdir)
            record["cases"][name]["tokenizer_ids"] = [tok(t, add_special_tokens=False)["input_ids"] for t in case.get("texts") or []]
        print(f"{name}: loaded by {'peft' if case.get('base') else 'transformers'}, {len(case['prompts'])} prompts recorded")
    with open(os.path.join(dest, "check.json"), "w", encoding="utf-8") as f:
        json.dump(record, f, indent=1)
        f.write("\n")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="fixtures/hf")
    ap.add_argument("--check-exports", metavar="DIR", help="record transformers/peft outputs for the lab's exports in DIR")
    args = ap.parse_args()
    torch.use_deterministic_algorithms(True)
    torch.set_num_threads(1)
    if args.check_exports:
        check_exports(args.check_exports, args.out)
        return
    if os.path.isdir(args.out):
        shutil.rmtree(args.out)
    os.makedirs(args.out)

    raw = train_tokenizer()
    tok = hf_tokenizer(raw)
    tokdir = os.path.join(args.out, "tokenizer")
    tok.save_pretrained(tokdir)
    reloaded = AutoTokenizer.from_pretrained(tokdir)
    tok_record = {
        "texts": [
            {"text": t, "ids": raw.encode(t, add_special_tokens=False).ids, "hf_ids": reloaded(t, add_special_tokens=False)["input_ids"],
             "decoded": reloaded.decode(reloaded(t, add_special_tokens=False)["input_ids"])}
            for t in TOKENIZER_TEXTS
        ],
        "chats": [
            {**c, "rendered": reloaded.apply_chat_template(c["messages"], tools=c.get("tools"), add_generation_prompt=c["add_generation_prompt"], tokenize=False),
             "ids": list(reloaded.apply_chat_template(c["messages"], tools=c.get("tools"), add_generation_prompt=c["add_generation_prompt"], tokenize=True, return_dict=True)["input_ids"])}
            for c in CONVERSATIONS
        ],
    }
    for t in tok_record["texts"]:
        assert t["ids"] == t["hf_ids"], f"tokenizers and transformers disagree on {t['text']!r}"

    vocab_tok = raw.get_vocab_size(with_added_tokens=True)
    vocab_model = (vocab_tok + 63) // 64 * 64  # Qwen pads the embedding table past the tokenizer's ids
    summary = {"versions": {"torch": torch.__version__, "transformers": transformers.__version__, "tokenizers": tokenizers.__version__},
               "tokenizer_vocab": vocab_tok, "model_vocab": vocab_model, "tokenizer": tok_record, "models": {}}

    for name, dtype, shard in VARIANTS:
        model = build_model(name, vocab_model)
        vdir = os.path.join(args.out, f"{name}-{dtype}")
        torch_dtype = {"f32": torch.float32, "bf16": torch.bfloat16, "f16": torch.float16}[dtype]
        model.to(torch_dtype).save_pretrained(vdir, max_shard_size=shard or "1GB")
        tok.save_pretrained(vdir)
        # Reload what was written, as a user would: the reference is what transformers computes from the files.
        loaded = AutoModelForCausalLM.from_pretrained(vdir, dtype=torch.float32).eval()
        rec = {"dtype": dtype, "sharded": shard is not None, "params": sum(p.numel() for p in loaded.parameters())}
        rec["f32_compute"] = record_model(vdir, loaded, tok, torch.float32)
        if dtype == "bf16":
            native = AutoModelForCausalLM.from_pretrained(vdir, dtype=torch.bfloat16).eval()
            sub = os.path.join(vdir, "bf16-compute")
            os.makedirs(sub)
            rec["bf16_compute"] = record_model(sub, native, tok, torch.bfloat16)
        summary["models"][f"{name}-{dtype}"] = rec
        margins = [p["greedy_min_margin"] for p in rec["f32_compute"]["prompts"]]
        print(f"{name}-{dtype}: {rec['params']} params, greedy min margin {min(margins):.4f}")

    with open(os.path.join(args.out, "reference.json"), "w", encoding="utf-8") as f:
        json.dump(summary, f, indent=1, ensure_ascii=False)
        f.write("\n")
    total = sum(os.path.getsize(os.path.join(d, x)) for d, _, xs in os.walk(args.out) for x in xs)
    print(f"wrote {args.out}: {total / 1e6:.2f} MB")


if __name__ == "__main__":
    main()
