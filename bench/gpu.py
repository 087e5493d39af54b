"""``python -m bench gpu``: tensorlab's Triton kernels against torch on a CUDA GPU.

Three measurements, each checked for the right answer before it is timed:

- matmul, fp16, 4096 x 4096 x 4096: TFLOP/s of ``tensorlab.kernels.matmul`` and ``torch.matmul``
  (cuBLAS), and their ratio (the issue's target: at least 80% of torch);
- softmax over the rows of a 4096 x 4096 fp16 tensor: achieved GB/s (one read and one write of
  the tensor) against ``torch.softmax`` and against the memory bandwidth — the peak computed from
  the device's memory clock and bus width when torch reports them, and a measured device-to-device
  copy (target: at least 85% of peak);
- bias + ReLU on 8192 x 8192 fp16: the fused kernel against torch's two kernels (``x + bias``, then
  ``relu``), which write and re-read the intermediate.

Times are medians from ``triton.testing.do_bench`` (CUDA events, the L2 cache flushed between
runs). Without a GPU it says so and exits 0: the interpreter runs the kernels, but its times say
nothing about a GPU.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

DEVICE = "cuda"  # tests/test_bench.py runs the report on the interpreter ("cpu") at tiny sizes
MATMUL_SIZE = 4096
SOFTMAX_SHAPE = (4096, 4096)
BIAS_RELU_SHAPE = (8192, 8192)
MATMUL_TARGET = 0.80  # of torch's TFLOP/s
BANDWIDTH_TARGET = 0.85  # of the peak memory bandwidth


@dataclass(frozen=True)
class Row:
    what: str
    tensorlab: str
    torch: str
    ratio: str
    note: str = ""


def no_gpu_message() -> str | None:
    """Why nothing can be measured here, or None when a CUDA GPU runs the kernels natively."""
    import torch

    if not torch.cuda.is_available():
        return "python -m bench gpu: no CUDA GPU here (torch.cuda.is_available() is False); nothing measured."
    from tensorlab.kernels import backend

    if backend() != "cuda":
        return "python -m bench gpu: TENSORLAB_KERNELS=interpret; unset it to run the kernels natively."
    return None


def milliseconds(fn: Callable[[], object]) -> float:
    import triton.testing

    return float(triton.testing.do_bench(fn, warmup=25, rep=200))


def peak_bandwidth_gb_s() -> float | None:
    """DRAM bandwidth from the spec sheet numbers torch reports (double data rate), if it reports them."""
    import torch

    properties = torch.cuda.get_device_properties(0)
    clock_khz = getattr(properties, "memory_clock_rate", None)
    bus_bits = getattr(properties, "memory_bus_width", None)
    if not clock_khz or not bus_bits:
        return None
    return 2 * clock_khz * 1e3 * bus_bits / 8 / 1e9


def copy_bandwidth_gb_s() -> float:
    """What a plain device-to-device copy achieves: a practical ceiling for a memory-bound kernel."""
    import torch

    source = torch.empty(256 * 2**20, dtype=torch.float32, device=DEVICE)  # 1 GiB
    target = torch.empty_like(source)
    return 2 * source.numel() * 4 / (milliseconds(lambda: target.copy_(source)) * 1e-3) / 1e9


def matmul_row() -> Row:
    import torch

    from tensorlab.kernels import matmul

    a = torch.randn(MATMUL_SIZE, MATMUL_SIZE, dtype=torch.float16, device=DEVICE)
    b = torch.randn(MATMUL_SIZE, MATMUL_SIZE, dtype=torch.float16, device=DEVICE)
    torch.testing.assert_close(matmul(a, b), torch.matmul(a, b), rtol=2e-2, atol=2e-1)  # K = 4096 fp16 sums
    flops = 2 * MATMUL_SIZE**3
    ours = flops / (milliseconds(lambda: matmul(a, b)) * 1e-3) / 1e12
    theirs = flops / (milliseconds(lambda: torch.matmul(a, b)) * 1e-3) / 1e12
    ratio = ours / theirs
    mark = "" if ratio >= MATMUL_TARGET else " ✗"
    return Row(f"matmul fp16 {MATMUL_SIZE}³", f"{ours:.0f} TFLOP/s", f"{theirs:.0f} TFLOP/s",
               f"{ratio:.2f}{mark}", f"target ≥ {MATMUL_TARGET:.2f}")


def softmax_row(peak: float | None, copy: float) -> Row:
    import torch

    from tensorlab.kernels import softmax

    x = torch.randn(*SOFTMAX_SHAPE, dtype=torch.float16, device=DEVICE)
    torch.testing.assert_close(softmax(x), torch.softmax(x, dim=-1), rtol=2e-3, atol=2e-3)
    moved = 2 * x.numel() * x.element_size()  # read x once, write the result once
    ours = moved / (milliseconds(lambda: softmax(x)) * 1e-3) / 1e9
    theirs = moved / (milliseconds(lambda: torch.softmax(x, dim=-1)) * 1e-3) / 1e9
    of_copy = f"{ours / copy:.0%} of copy {copy:.0f} GB/s"
    if peak:  # the target is against the peak; the copy says how much of the gap any kernel could close
        mark = "" if ours / peak >= BANDWIDTH_TARGET else " ✗"
        note = f"{ours / peak:.0%} of peak {peak:.0f} GB/s{mark}, {of_copy}"
    else:
        mark = "" if ours / copy >= BANDWIDTH_TARGET else " ✗"
        note = f"{of_copy}{mark} (torch reports no peak)"
    return Row(f"softmax fp16 {SOFTMAX_SHAPE[0]}x{SOFTMAX_SHAPE[1]}", f"{ours:.0f} GB/s", f"{theirs:.0f} GB/s",
               f"{ours / theirs:.2f}", note)


def bias_relu_row() -> Row:
    import torch

    from tensorlab.kernels import bias_relu

    x = torch.randn(*BIAS_RELU_SHAPE, dtype=torch.float16, device=DEVICE)
    bias = torch.randn(BIAS_RELU_SHAPE[1], dtype=torch.float16, device=DEVICE)
    torch.testing.assert_close(bias_relu(x, bias), torch.relu(x + bias))
    with torch.no_grad():  # time the forward kernels only
        fused = milliseconds(lambda: bias_relu(x, bias))
        unfused = milliseconds(lambda: torch.relu(x + bias))
    return Row(f"bias+ReLU fp16 {BIAS_RELU_SHAPE[0]}x{BIAS_RELU_SHAPE[1]}", f"{fused * 1e3:.0f} µs (fused)",
               f"{unfused * 1e3:.0f} µs (add, relu)", f"{fused / unfused:.2f}", "time ratio: lower is faster")


def table(rows: list[Row]) -> str:
    lines = ["| workload | tensorlab (Triton) | torch | ratio | note |", "|---|---|---|---|---|"]
    lines += [f"| {r.what} | {r.tensorlab} | {r.torch} | {r.ratio} | {r.note} |" for r in rows]
    return "\n".join(lines)


def run_gpu_benchmark() -> int:
    reason = no_gpu_message()
    if reason is not None:
        print(reason)
        return 0
    import torch

    peak, copy = peak_bandwidth_gb_s(), copy_bandwidth_gb_s()
    print(f"## tensorlab.kernels vs torch on {torch.cuda.get_device_name(0)}\n")
    print(f"- torch {torch.__version__}, triton {__import__('triton').__version__}, CUDA {torch.version.cuda}")
    print(f"- memory bandwidth: peak {f'{peak:.0f} GB/s' if peak else 'not reported by torch'}, copy {copy:.0f} GB/s\n")
    print(table([matmul_row(), softmax_row(peak, copy), bias_relu_row()]))
    print("\nRatios: tensorlab over torch for TFLOP/s and GB/s (higher is better), time for bias+ReLU. ✗ marks a missed target.")
    return 0
