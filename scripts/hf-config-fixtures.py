#!/usr/bin/env python3
"""config.json fixtures for the lab's one config reader (src/model/hf/config.ts), made by transformers itself.

Writes fixtures/hf/configs/:
  v4-spelling.json       qwen2-tied-gqa-f32's config as transformers 4.x spelled it (top-level rope_theta,
                         rope_scaling null, torch_dtype); checked to load in this transformers with the same theta
  refuse-<variant>.json  configs transformers writes for what the lab refuses: scaled RoPE (linear, dynamic, yarn),
                         sliding-window attention
and prints each with the transformers version. The transformers-5 spelling is fixtures/hf/qwen2-*/config.json
(scripts/hf-reference.py). Needs only transformers (no torch):
  python3 -m venv /tmp/venv && /tmp/venv/bin/pip install transformers
  /tmp/venv/bin/python scripts/hf-config-fixtures.py
"""
import json
import os
import tempfile

import transformers
from transformers import Qwen2Config

ROOT = os.path.join(os.path.dirname(__file__), "..", "fixtures", "hf")
OUT = os.path.join(ROOT, "configs")
BASE = os.path.join(ROOT, "qwen2-tied-gqa-f32", "config.json")


def write(name, cfg):
    path = os.path.join(OUT, name)
    with open(path, "w") as f:
        json.dump(cfg, f, indent=2, sort_keys=True)
        f.write("\n")
    print(f"{path}: rope {cfg.get('rope_parameters', cfg.get('rope_theta'))}")


def saved(config):
    """config.json exactly as save_pretrained writes it."""
    with tempfile.TemporaryDirectory() as d:
        config.save_pretrained(d)
        with open(os.path.join(d, "config.json")) as f:
            return json.load(f)


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(BASE) as f:
        v5 = json.load(f)
    theta = v5["rope_parameters"]["rope_theta"]
    # transformers 4.x: rope_theta and rope_scaling at the top level, torch_dtype, no rope_parameters / layer_types.
    v4 = {k: v for k, v in v5.items() if k not in ("rope_parameters", "layer_types", "dtype")}
    v4.update(rope_theta=theta, rope_scaling=None, torch_dtype=v5["dtype"], transformers_version="4.57.1")
    write("v4-spelling.json", v4)
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "config.json"), "w") as f:
            json.dump(v4, f)
        back = Qwen2Config.from_pretrained(d)
        assert back.rope_parameters["rope_theta"] == theta, back.rope_parameters

    base = Qwen2Config.from_pretrained(os.path.dirname(BASE))
    kw = {k: getattr(base, k) for k in ("vocab_size", "hidden_size", "intermediate_size", "num_hidden_layers",
                                        "num_attention_heads", "num_key_value_heads", "max_position_embeddings")}
    for rope_type, extra in (("linear", {"factor": 2.0}), ("dynamic", {"factor": 2.0}),
                             ("yarn", {"factor": 4.0, "original_max_position_embeddings": 64})):
        rope = {"rope_type": rope_type, "rope_theta": theta, **extra}
        write(f"refuse-rope-{rope_type}.json", saved(Qwen2Config(**kw, rope_parameters=rope)))
    write("refuse-sliding-window.json",
          saved(Qwen2Config(**kw, use_sliding_window=True, sliding_window=64, max_window_layers=1)))
    print(f"transformers {transformers.__version__}")


if __name__ == "__main__":
    main()
