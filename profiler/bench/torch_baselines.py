"""Anchor baselines on the GPU machine: what a user would pick instead of tcx.

Workload 1 (VTC Figure 2): Llama-3-8B decode step of one layer from the QKV projection to the
attention output, batch 16, context 4096, bf16.  Variants:
  eager      - Meta reference style: split/view/index_put/slice/expand(repeat_kv)/transpose/matmul/softmax/matmul
  compile    - torch.compile of the same function (TorchInductor, default mode)
  expert     - hand-optimised path: one QKV GEMM, in-place cache write, SDPA with enable_gqa (no repeat_kv)
  roofline   - bytes that must move / measured device copy bandwidth
Workload 2 (VTC YOLOv11 C3K2-like Split/Concat block) and 3 (ShuffleNet v2 unit) at batch 16.
Prints one line per measurement: name, median us, p10, p90, peak MiB.

Forked from shared/bench/torch_baselines.py on 2026-11-29: the L2 cache is flushed by reading a
buffer (as tcx profile does; kernels/include/tcx/l2_flush.cuh says why), not by zeroing it.
"""
import math, statistics, torch, torch.nn.functional as F
torch.backends.cuda.matmul.allow_tf32 = True
dev = "cuda"
flush = torch.zeros(512 * 1024 * 1024 // 4, dtype=torch.int32, device=dev)

def bench(fn, reps=60, warm=10):
    for _ in range(warm): fn()
    torch.cuda.synchronize()
    ts = []
    for _ in range(reps):
        flush.sum()
        s, e = torch.cuda.Event(True), torch.cuda.Event(True)
        s.record(); fn(); e.record(); torch.cuda.synchronize()
        ts.append(s.elapsed_time(e) * 1000)
    ts.sort()
    return ts[len(ts)//2], ts[len(ts)//10], ts[len(ts)*9//10]

def peak(fn):
    torch.cuda.synchronize(); torch.cuda.reset_peak_memory_stats(); base = torch.cuda.memory_allocated()
    fn(); torch.cuda.synchronize()
    return (torch.cuda.max_memory_allocated() - base) / 2**20

def report(name, fn):
    med, p10, p90 = bench(fn); pk = peak(fn)
    print(f"{name:34s} median_us={med:9.1f} p10={p10:9.1f} p90={p90:9.1f} peak_extra_MiB={pk:8.1f}", flush=True)
    return med

# copy bandwidth
n = 1 << 28
a = torch.empty(n, dtype=torch.float32, device=dev); b = torch.empty_like(a)
med, _, _ = bench(lambda: b.copy_(a), reps=20)
bw = 2 * n * 4 / (med * 1e-6)
print(f"device={torch.cuda.get_device_name()} copy_bandwidth_GBps={bw/1e9:.0f}")
del a, b

B, S, H, KV, D, DIM = 16, 4096, 32, 8, 128, 4096
bf = torch.bfloat16
x = torch.randn(B, 1, DIM, device=dev, dtype=bf)
wqkv = torch.randn((H + 2*KV) * D, DIM, device=dev, dtype=bf) / 64
ck = torch.randn(B, S, KV, D, device=dev, dtype=bf); cv = torch.randn_like(ck)
pos = S - 1

def eager(x, wqkv, ck, cv):
    qkv = F.linear(x, wqkv)
    xq, xk, xv = qkv.split([H*D, KV*D, KV*D], dim=-1)
    xq = xq.view(B, 1, H, D); xk = xk.view(B, 1, KV, D); xv = xv.view(B, 1, KV, D)
    ck = ck.clone(); cv = cv.clone()          # functional cache update, as an exported graph does (ScatterND)
    ck[:, pos:pos+1] = xk; cv[:, pos:pos+1] = xv
    keys = ck[:, :pos+1]; values = cv[:, :pos+1]
    rep = H // KV
    keys = keys[:, :, :, None, :].expand(B, pos+1, KV, rep, D).reshape(B, pos+1, H, D)
    values = values[:, :, :, None, :].expand(B, pos+1, KV, rep, D).reshape(B, pos+1, H, D)
    q = xq.transpose(1, 2); k = keys.transpose(1, 2); v = values.transpose(1, 2)
    sc = torch.matmul(q, k.transpose(2, 3)) / math.sqrt(D)
    sc = F.softmax(sc.float(), dim=-1).type_as(q)
    return torch.matmul(sc, v).transpose(1, 2).reshape(B, 1, H*D), ck, cv

def expert(x, wqkv, ck, cv):
    qkv = F.linear(x, wqkv)
    xq, xk, xv = qkv.split([H*D, KV*D, KV*D], dim=-1)
    ck[:, pos] = xk.view(B, KV, D); cv[:, pos] = xv.view(B, KV, D)     # in-place cache write
    q = xq.view(B, 1, H, D).transpose(1, 2)
    k = ck[:, :pos+1].transpose(1, 2); v = cv[:, :pos+1].transpose(1, 2)  # strided views, no copy
    o = F.scaled_dot_product_attention(q, k, v, enable_gqa=True)
    return o.transpose(1, 2).reshape(B, 1, H*D)

t_e = report("llama3_decode eager", lambda: eager(x, wqkv, ck, cv))
comp = torch.compile(eager)
t_c = report("llama3_decode torch.compile", lambda: comp(x, wqkv, ck, cv))
try:
    compm = torch.compile(eager, mode="max-autotune-no-cudagraphs")
    t_m = report("llama3_decode compile max-autotune", lambda: compm(x, wqkv, ck, cv))
except Exception as ex:
    print("max-autotune failed", str(ex)[:200])
t_x = report("llama3_decode expert (SDPA gqa)", lambda: expert(x, wqkv, ck, cv))
bytes_min = wqkv.numel()*2 + B*S*KV*D*2*2 + x.numel()*2 + B*H*D*2 + 2*B*KV*D*2
print(f"llama3_decode roofline_us={bytes_min/bw*1e6:.1f} (bytes={bytes_min/1e6:.1f} MB at copy bandwidth)")

# YOLOv11 C3K2-like: conv1x1 -> split -> bottleneck conv on one half -> concat -> conv1x1 (batch 16, 640 input -> 160x160 maps, c=64)
def c3k2_setup(b=16, c=64, hw=160, dt=torch.float32):
    xin = torch.randn(b, c, hw, hw, device=dev, dtype=dt)
    w1 = torch.randn(2*c, c, 1, 1, device=dev, dtype=dt)/8; w2 = torch.randn(c, c, 3, 3, device=dev, dtype=dt)/24
    w3 = torch.randn(c, 3*c, 1, 1, device=dev, dtype=dt)/14
    def f(xin):
        y = F.silu(F.conv2d(xin, w1))
        a, bb = y.split(c, dim=1)
        cc = F.silu(F.conv2d(bb, w2, padding=1)) + bb
        return F.silu(F.conv2d(torch.cat([a, bb, cc], dim=1), w3))
    return f, xin
f, xin = c3k2_setup()
report("c3k2 eager", lambda: f(xin)); fc = torch.compile(f); report("c3k2 torch.compile", lambda: fc(xin))

# ShuffleNet v2 unit (stride 1), batch 16, 116 channels at 28x28
def shuffle_setup(b=16, c=116, hw=28, dt=torch.float32):
    xin = torch.randn(b, c, hw, hw, device=dev, dtype=dt); h = c // 2
    w1 = torch.randn(h, h, 1, 1, device=dev, dtype=dt)/8; wd = torch.randn(h, 1, 3, 3, device=dev, dtype=dt)/3
    w2 = torch.randn(h, h, 1, 1, device=dev, dtype=dt)/8
    def f(xin):
        x1, x2 = xin.chunk(2, dim=1)
        y = F.relu(F.conv2d(x2, w1)); y = F.conv2d(y, wd, padding=1, groups=h); y = F.relu(F.conv2d(y, w2))
        out = torch.cat([x1, y], dim=1)
        return out.view(b, 2, h, hw, hw).transpose(1, 2).reshape(b, c, hw, hw)
    return f, xin
f, xin = shuffle_setup()
report("shufflenet_unit eager", lambda: f(xin)); fc = torch.compile(f); report("shufflenet_unit torch.compile", lambda: fc(xin))
