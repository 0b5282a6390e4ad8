#!/usr/bin/env python3
"""Exports tcx's real-model suite: PyTorch models from their own libraries
(transformers, torchvision, and a Meta-style Llama-3 decode step), through
torch.onnx.export with both the TorchScript and the dynamo exporter where each
works, as users export them. Float weights (the modules' parameters and
buffers, and any float constant over 64 KiB) become graph inputs so the files
stay small (tcx feeds them random values); smaller float constants the forward
computes and integer buffers (position ids, masks, index tables) stay in the
file.

Three sizes per model:
  small/  the same architecture at a width and input size that tcx's CPU tests
          run in a few seconds (tests/models);
  full/   real widths at batch 1, for the GPU checks and benchmarks;
  serve/  real widths at a serving batch: 32 images, 8 sequences of 128
          tokens, 8 decode steps (the benchmark's second batch, issue 20).

Usage (on a machine with torch, transformers, torchvision, onnx, onnxscript):
  python3 models/real/export.py OUTDIR [--size small|full|serve|both] [--only NAME...]
                                       [--exporters torchscript dynamo]
Writes OUTDIR/<size>/<model>.<exporter>.onnx and OUTDIR/manifest.<size>.json
(versions, and per export: ok or the exporter's error). The suite in the repo is
OUTDIR = models/real.
"""

import argparse
import json
import platform
import sys
import time
import traceback
from pathlib import Path

import onnx
import torch
import torchvision
import transformers
from onnx import helper, numpy_helper

# Token ids per size: (batch, sequence length).
TOKENS = {"small": (1, 8), "full": (1, 16), "serve": (8, 128)}
# Images per batch.
IMAGES = {"small": 1, "full": 1, "serve": 32}


# --- weights as inputs ------------------------------------------------------

FLOAT_TYPES = (onnx.TensorProto.FLOAT, onnx.TensorProto.FLOAT16, onnx.TensorProto.BFLOAT16,
               onnx.TensorProto.DOUBLE)


# A float initializer that is none of the module's parameters or buffers is a
# constant the forward computed at export time (Swin's shifted-window mask,
# a scale). Users' exports keep those in the file and tcx folds them; only
# large ones are lifted, to keep the files small.
KEEP_BYTES = 64 * 1024


def lift_float_initializers(path: Path, weights: set) -> int:
    """Turns the float initializers named in `weights` (the module's
    parameters and buffers), and any other over KEEP_BYTES, into graph
    inputs; returns how many. Smaller float constants, and integer and
    boolean initializers (index buffers, masks), stay constant."""
    model = onnx.load(str(path), load_external_data=True)
    graph = model.graph
    kept, lifted = [], 0
    inputs = {i.name for i in graph.input}
    for t in graph.initializer:
        size = numpy_helper.to_array(t).nbytes
        if t.data_type in FLOAT_TYPES and len(t.dims) > 0 and (t.name in weights or size > KEEP_BYTES):
            if t.name not in inputs:
                graph.input.append(helper.make_tensor_value_info(t.name, t.data_type, list(t.dims)))
            lifted += 1
        else:
            kept.append(t)
    del graph.initializer[:]
    graph.initializer.extend(kept)
    for f in path.parent.glob(path.name + ".data"):
        f.unlink()
    onnx.save(model, str(path))
    return lifted


# --- the models --------------------------------------------------------------

class LastHidden(torch.nn.Module):
    """A transformers model as users export it for inference: token ids in,
    last hidden state out, no KV cache object. The attention mask (all ones)
    is passed as a serving stack passes it; without one, transformers 5
    looks for packed sequences with torch.diff, which the TorchScript
    exporter cannot export."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, input_ids):
        mask = torch.ones_like(input_ids)
        return self.model(input_ids=input_ids, attention_mask=mask, use_cache=False).last_hidden_state


def decoder(config_cls, small, full):
    def build(size):
        kw = small if size == "small" else full
        cfg = config_cls(**kw)
        model = transformers.AutoModel.from_config(cfg)
        ids = torch.randint(0, min(cfg.vocab_size, 1000), TOKENS[size])
        return LastHidden(model), (ids,)
    return build


def llm_widths(hidden, inter, heads, kv, **extra):
    small = dict(hidden_size=64, intermediate_size=128, num_attention_heads=4, num_key_value_heads=min(kv, 2),
                 num_hidden_layers=2, vocab_size=512, max_position_embeddings=128)
    full = dict(hidden_size=hidden, intermediate_size=inter, num_attention_heads=heads, num_key_value_heads=kv,
                num_hidden_layers=2, vocab_size=32000, max_position_embeddings=4096)
    for k, v in extra.items():
        small[k] = v[0] if isinstance(v, tuple) else v
        full[k] = v[1] if isinstance(v, tuple) else v
    return small, full


def vision(builder, small_hw=64, full_hw=224, **kw):
    def build(size):
        hw = small_hw if size == "small" else full_hw
        return builder(**kw), (torch.randn(IMAGES[size], 3, hw, hw),)
    return build


def vit(size):
    from torchvision.models.vision_transformer import VisionTransformer
    if size == "small":
        m = VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=4, hidden_dim=64, mlp_dim=128)
        return m, (torch.randn(1, 3, 32, 32),)
    return torchvision.models.vit_b_16(), (torch.randn(IMAGES[size], 3, 224, 224),)


def swin(size):
    from torchvision.models.swin_transformer import SwinTransformer
    if size == "small":
        m = SwinTransformer(patch_size=[4, 4], embed_dim=32, depths=[2, 2], num_heads=[2, 4], window_size=[4, 4],
                            stochastic_depth_prob=0.0)
        return m, (torch.randn(1, 3, 32, 32),)
    return torchvision.models.swin_t(), (torch.randn(IMAGES[size], 3, 224, 224),)


def encoder(config_cls, small, full):
    def build(size):
        cfg = config_cls(**(small if size == "small" else full))
        ids = torch.randint(0, 1000, TOKENS[size])
        return EncoderHidden(transformers.AutoModel.from_config(cfg)), (ids,)
    return build


class EncoderHidden(LastHidden):
    """An encoder has no KV cache to turn off."""

    def forward(self, input_ids):
        return self.model(input_ids=input_ids, attention_mask=torch.ones_like(input_ids)).last_hidden_state


class MetaLlamaDecode(torch.nn.Module):
    """One decode step of Llama-3's attention as Meta's reference code writes
    it: RoPE on q and k, the new k and v written into the caches at the
    position with index_put, repeat_kv for grouped-query attention, softmax
    attention over the cache, the output projection. The position is an input,
    so the cache update is a ScatterND with run-time indices."""

    def __init__(self, dim, heads, kv_heads, max_seq):
        super().__init__()
        self.heads, self.kv_heads, self.head_dim = heads, kv_heads, dim // heads
        self.wq = torch.nn.Linear(dim, heads * self.head_dim, bias=False)
        self.wk = torch.nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.wv = torch.nn.Linear(dim, kv_heads * self.head_dim, bias=False)
        self.wo = torch.nn.Linear(heads * self.head_dim, dim, bias=False)
        self.max_seq = max_seq

    @staticmethod
    def rope(x, cos, sin):
        x1, x2 = x[..., ::2], x[..., 1::2]
        return torch.stack((x1 * cos - x2 * sin, x1 * sin + x2 * cos), dim=-1).flatten(-2)

    def forward(self, x, cache_k, cache_v, pos, cos, sin):
        b = x.shape[0]
        q = self.wq(x).view(b, 1, self.heads, self.head_dim)
        k = self.wk(x).view(b, 1, self.kv_heads, self.head_dim)
        v = self.wv(x).view(b, 1, self.kv_heads, self.head_dim)
        q, k = self.rope(q, cos, sin), self.rope(k, cos, sin)
        cache_k = cache_k.index_put((torch.arange(b).unsqueeze(1), pos.view(1, 1)), k)
        cache_v = cache_v.index_put((torch.arange(b).unsqueeze(1), pos.view(1, 1)), v)
        keys = torch.repeat_interleave(cache_k, self.heads // self.kv_heads, dim=2)
        values = torch.repeat_interleave(cache_v, self.heads // self.kv_heads, dim=2)
        scores = torch.matmul(q.transpose(1, 2), keys.permute(0, 2, 3, 1)) / self.head_dim ** 0.5
        valid = (torch.arange(self.max_seq) <= pos).view(1, 1, 1, self.max_seq)
        scores = scores.masked_fill(~valid, float("-inf"))
        out = torch.matmul(torch.softmax(scores, dim=-1), values.transpose(1, 2))
        return self.wo(out.transpose(1, 2).reshape(b, 1, -1)), cache_k, cache_v


def llama_decode(size):
    dim, heads, kv, seq = (64, 4, 2, 32) if size == "small" else (4096, 32, 8, 1024)
    m = MetaLlamaDecode(dim, heads, kv, seq)
    hd = dim // heads
    b = TOKENS[size][0]
    args = (torch.randn(b, 1, dim), torch.randn(b, seq, kv, hd), torch.randn(b, seq, kv, hd),
            torch.tensor([seq // 2]), torch.randn(1, 1, 1, hd // 2), torch.randn(1, 1, 1, hd // 2))
    return m, args


def models():
    t, tv = transformers, torchvision.models
    return {
        # Decoder LLMs: grouped-query (Llama-3, Qwen2), sliding-window (Mistral), local/global attention with soft
        # capping (Gemma-2), fused QKV and gate-up projections (Phi-3), parallel attention and MLP (GPT-NeoX),
        # learned positions and Conv1D projections (GPT-2).
        "llama3": ("decoder", "grouped-query attention, RoPE",
                   decoder(t.LlamaConfig, *llm_widths(4096, 14336, 32, 8))),
        "qwen2": ("decoder", "grouped-query attention, QKV bias",
                  decoder(t.Qwen2Config, *llm_widths(3584, 18944, 28, 4))),
        "mistral": ("decoder", "sliding-window attention",
                    decoder(t.MistralConfig, *llm_widths(4096, 14336, 32, 8, sliding_window=(4, 4096)))),
        "gemma2": ("decoder", "alternating local/global attention, logit soft-capping",
                   decoder(t.Gemma2Config, *llm_widths(3584, 14336, 16, 8, head_dim=(16, 256),
                                                       sliding_window=(4, 4096)))),
        "phi3": ("decoder", "fused QKV and gate-up projections",
                 decoder(t.Phi3Config, *llm_widths(3072, 8192, 32, 32, pad_token_id=0))),
        "gpt_neox": ("decoder", "parallel attention and MLP, partial rotary",
                     decoder(t.GPTNeoXConfig,
                             dict(hidden_size=64, intermediate_size=128, num_attention_heads=4, num_hidden_layers=2,
                                  vocab_size=512, use_parallel_residual=True),
                             dict(hidden_size=2560, intermediate_size=10240, num_attention_heads=32,
                                  num_hidden_layers=2, vocab_size=32000, use_parallel_residual=True))),
        "gpt2": ("decoder", "learned positions, Conv1D projections",
                 decoder(t.GPT2Config, dict(n_embd=64, n_head=4, n_layer=2, vocab_size=512, n_positions=128),
                         dict(n_embd=768, n_head=12, n_layer=2))),
        # Encoders.
        "bert": ("encoder", "BERT: post-norm encoder, token types, GELU",
                 encoder(t.BertConfig, dict(hidden_size=64, intermediate_size=128, num_attention_heads=4,
                                            num_hidden_layers=2, vocab_size=1000),
                         dict(num_hidden_layers=2))),
        "distilbert": ("encoder", "DistilBERT: no token types, fused layer layout",
                       encoder(t.DistilBertConfig, dict(dim=64, hidden_dim=128, n_heads=4, n_layers=2,
                                                        vocab_size=1000), dict(n_layers=2))),
        # Vision CNNs.
        "resnet18": ("cnn", "residual", vision(tv.resnet18)),
        "resnext50": ("cnn", "grouped convolutions", vision(tv.resnext50_32x4d)),
        "regnet_y_400mf": ("cnn", "grouped convolutions, squeeze-excite", vision(tv.regnet_y_400mf)),
        "mobilenet_v3_small": ("cnn", "depthwise, squeeze-excite, hard-swish", vision(tv.mobilenet_v3_small)),
        "efficientnet_b0": ("cnn", "depthwise, squeeze-excite, SiLU", vision(tv.efficientnet_b0)),
        "shufflenet_v2": ("cnn", "channel shuffle", vision(tv.shufflenet_v2_x1_0)),
        "densenet121": ("cnn", "dense connections", vision(tv.densenet121)),
        "squeezenet": ("cnn", "fire modules, ceil-mode pooling", vision(tv.squeezenet1_0)),
        "convnext_tiny": ("cnn", "depthwise 7x7, LayerNorm, layer scale", vision(tv.convnext_tiny)),
        # Vision transformers.
        "vit": ("vit", "ViT: patch embedding, class token", vit),
        "swin": ("vit", "Swin: shifted windowed attention", swin),
        # A decode step with a KV cache updated by index_put.
        "llama3_decode_kv": ("decode", "Meta-style decode attention: index_put into the KV cache, repeat_kv",
                             llama_decode),
    }


def export_one(model, args, path: Path, exporter: str):
    # Not under torch.no_grad(): without gradients torch.nn.MultiheadAttention
    # takes its fused fast path (aten::_native_multi_head_attention), which the
    # TorchScript exporter cannot export (ViT).
    model.eval()
    if exporter == "torchscript":
        torch.onnx.export(model, args, str(path), dynamo=False, opset_version=17)
    else:
        torch.onnx.export(model, args, str(path), dynamo=True, external_data=False)
    weights = {name for name, _ in model.named_parameters(remove_duplicate=False)}
    weights |= {name for name, _ in model.named_buffers(remove_duplicate=False)}
    return lift_float_initializers(path, weights)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("outdir")
    parser.add_argument("--size", choices=["small", "full", "serve", "both"], default="both",
                        help="both: small and full")
    parser.add_argument("--only", nargs="*")
    parser.add_argument("--exporters", nargs="*", default=["torchscript", "dynamo"])
    opts = parser.parse_args()
    out = Path(opts.outdir)
    sizes = ["small", "full"] if opts.size == "both" else [opts.size]
    versions = {"python": platform.python_version(), "torch": torch.__version__,
                "transformers": transformers.__version__, "torchvision": torchvision.__version__,
                "onnx": onnx.__version__}
    for size in sizes:
        manifest = {"versions": versions,
                    "command": " ".join(["python3", "models/real/export.py", "OUTDIR", "--size", size,
                                         "--exporters", *opts.exporters]),
                    "exports": []}
        (out / size).mkdir(parents=True, exist_ok=True)
        for name, (kind, what, build) in models().items():
            if opts.only and name not in opts.only:
                continue
            for exporter in opts.exporters:
                torch.manual_seed(0)
                path = out / size / f"{name}.{exporter}.onnx"
                entry = {"model": name, "kind": kind, "what": what, "size": size, "exporter": exporter,
                         "file": f"{size}/{path.name}"}
                start = time.time()
                try:
                    model, args = build(size)
                    entry["weights_as_inputs"] = export_one(model, args, path, exporter)
                    entry["status"] = "ok"
                    entry["bytes"] = path.stat().st_size
                except Exception as e:  # an exporter's failure is a result to record, not a crash
                    entry["status"] = "failed"
                    entry["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"[:300]
                    traceback.print_exc(limit=2)
                    if path.exists():
                        path.unlink()
                entry["seconds"] = round(time.time() - start, 1)
                print(f"{entry['status']:6} {size:5} {exporter:11} {name} ({entry['seconds']} s)"
                      + (f": {entry.get('error')}" if entry["status"] != "ok" else ""), flush=True)
                manifest["exports"].append(entry)
        (out / f"manifest.{size}.json").write_text(json.dumps(manifest, indent=1) + "\n")


if __name__ == "__main__":
    main()
