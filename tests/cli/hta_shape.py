# hta_shape.py - writes the traces in the shape of HolisticTraceAnalysis' test traces (tests/data of
# github.com/facebookresearch/HolisticTraceAnalysis, MIT; e.g. tests/data/call_stack/backward_thread.json):
# a kernel's "External id" is its correlation and matches no cpu_op; its launch call (cuda_runtime,
# "External id" = correlation too) lies inside cpu_ops on its thread. Nothing is copied from those
# files: the events are made here.
#   python3 tests/cli/hta_shape.py cases OUT.json      the hand-made cases (tests/cli/test_nesting.sh)
#   python3 tests/cli/hta_shape.py lookalike OUT.json  a training step's look-alike (3 steps)
import json
import os
import random
import sys

PROPS = [{"id": 0, "name": "NVIDIA H100 80GB HBM3", "totalGlobalMem": 85017493504, "computeMajor": 9,
          "computeMinor": 0, "maxThreadsPerBlock": 1024, "maxThreadsPerMultiprocessor": 2048,
          "regsPerBlock": 65536, "warpSize": 32, "sharedMemPerBlock": 49152, "numSms": 132}]


class Trace:
    def __init__(self):
        self.ev = []
        self.gpu_ts = 5000.0
        self.corr = 2131433  # HTA's numbers: correlations far above the ops' External ids

    def op(self, name, ts, dur, ext, tid=100, pid=100, dims=None, types=None):
        args = {"External id": ext, "Record function id": 0}
        if dims is not None:
            args["Input Dims"] = dims
            args["Input type"] = types
        self.ev.append({"ph": "X", "cat": "cpu_op", "name": name, "pid": pid, "tid": tid, "ts": ts, "dur": dur,
                        "args": args})

    def launch(self, ts, dur, kernels, tid=100, pid=100, call="cudaLaunchKernel", ext=None):
        """A launch call and its GPU activities: (cat, name, dur[, bytes]); ext: the kernels' External id
        (HTA: the correlation)."""
        self.corr += 1
        c = self.corr
        self.ev.append({"ph": "X", "cat": "cuda_runtime", "name": call, "pid": pid, "tid": tid, "ts": ts,
                        "dur": dur, "args": {"External id": c, "cbid": 211, "correlation": c}})
        self.gpu(kernels, c, c if ext is None else ext)
        return c

    def gpu(self, kernels, corr, ext):
        for k in kernels:
            cat, name, dur = k[:3]
            args = {"External id": ext, "device": 0, "context": 1, "stream": 7, "correlation": corr}
            if cat == "kernel":
                args.update({"grid": [32, 1, 1], "block": [128, 1, 1]})
            else:
                args["bytes"] = k[3]
            self.ev.append({"ph": "X", "cat": cat, "name": name, "pid": 0, "tid": 7, "ts": self.gpu_ts, "dur": dur,
                            "args": args})
            self.gpu_ts += dur + 1

    def write(self, path):
        json.dump({"schemaVersion": 1, "deviceProperties": PROPS, "distributedInfo": {"rank": 0},
                   "traceEvents": self.ev, "traceName": os.path.basename(path)}, open(path, "w"), indent=0)


BF = "c10::BFloat16"
GEMM = "void cutlass::Kernel<cutlass_80_tensorop_bf16_s16816gemm_128x128_32x3_nn_align8>"
EW = "void at::native::vectorized_elementwise_kernel<4, at::native::CUDAFunctor_add<c10::BFloat16> >"


def cases(path):
    t = Trace()
    # A, B: a launch inside aten::addmm inside aten::linear (addmm); one in linear after addmm (linear)
    t.op("aten::linear", 0, 100, 1, dims=[[64, 128], [256, 128], [256]], types=[BF, BF, BF])
    t.op("aten::addmm", 10, 50, 2, dims=[[256], [64, 128], [128, 256], [], []], types=[BF, BF, BF, "Scalar", "Scalar"])
    t.launch(20, 10, [("kernel", GEMM, 8.0)])
    t.launch(70, 5, [("kernel", EW, 3.0)])
    # C: two ops of one span (the later in the file is the inner), a child the call outlives
    t.op("aten::to", 200, 50, 3)
    t.op("aten::_to_copy", 200, 50, 4)
    t.op("aten::copy_", 205, 40, 5)
    t.launch(240, 8, [("gpu_memcpy", "Memcpy HtoD (Pinned -> Device)", 4.0, 4096)], call="cudaMemcpyAsync")
    # D: a launch on a thread without ops; E: on the same tid of another process
    t.launch(300, 5, [("kernel", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 11.0)], tid=300)
    t.op("aten::relu", 500, 20, 6, pid=101, dims=[[64, 256]], types=[BF])
    t.launch(20, 5, [("kernel", EW, 5.0)], pid=101)
    # F: a graph launch inside an op: its kernels take no op by nesting
    t.op("CUDAGraph::replay", 400, 50, 7)
    t.launch(410, 10, [("kernel", EW, 6.0), ("kernel", GEMM, 7.0)], call="cudaGraphLaunch")
    # G: the External id wins: the kernel names aten::mul although its call lies in aten::div
    t.op("aten::mul", 600, 20, 8, dims=[[64, 256], [64, 256]], types=[BF, BF])
    t.op("aten::div", 600, 50, 9, tid=200)
    t.launch(610, 5, [("kernel", EW, 9.0)], tid=200, ext=8)
    # H: no launch call at all
    t.gpu([("kernel", EW, 12.0)], 99999, 99999)
    # I: the backward thread, three deep, two calls
    t.op("autograd::engine::evaluate_function: MmBackward0", 700, 100, 10, tid=200)
    t.op("MmBackward0", 701, 89, 11, tid=200)
    t.op("aten::mm", 705, 45, 12, tid=200, dims=[[64, 256], [256, 128]], types=[BF, BF])
    t.launch(710, 5, [("kernel", GEMM, 13.0)], tid=200)
    t.op("aten::mm", 755, 30, 13, tid=200, dims=[[256, 64], [64, 128]], types=[BF, BF])
    t.launch(760, 5, [("kernel", GEMM, 14.0)], tid=200)
    # J: a call exactly the op's span; K: a call of no length at the op's end
    t.op("aten::fill_", 900, 10, 14, dims=[[64, 256], []], types=[BF, "Scalar"])
    t.launch(900, 10, [("gpu_memset", "Memset (Device)", 2.0, 32768)], call="cudaMemsetAsync")
    t.op("aten::zero_", 920, 10, 15, dims=[[64, 256]], types=[BF])
    t.launch(930, 0, [("gpu_memset", "Memset (Device)", 1.5, 32768)], call="cudaMemsetAsync")
    t.write(path)


def lookalike(path):
    rnd = random.Random(43)
    t = Trace()
    ext = [0]

    def nid():
        ext[0] += 1
        return ext[0]

    ts = 0.0
    for step in range(3):
        start = ts
        # forward on the main thread: per layer linear(addmm), gelu, dropout(native_dropout)
        for layer in range(24):
            b, k, n = 512, rnd.choice([768, 1024]), rnd.choice([768, 3072])
            t.op("aten::linear", ts, 60, nid(), dims=[[b, k], [n, k], [n]], types=[BF] * 3)
            t.op("aten::t", ts + 2, 5, nid(), dims=[[n, k]], types=[BF])
            t.op("aten::addmm", ts + 10, 45, nid(), dims=[[n], [b, k], [k, n], [], []], types=[BF, BF, BF, "Scalar", "Scalar"])
            t.launch(ts + 30, 8, [("kernel", GEMM, round(rnd.uniform(20, 60), 3))])
            ts += 62
            t.op("aten::gelu", ts, 20, nid(), dims=[[b, n], []], types=[BF, ""])
            t.launch(ts + 5, 6, [("kernel", EW, round(rnd.uniform(5, 15), 3))])
            ts += 22
            t.op("aten::dropout", ts, 40, nid(), dims=[[b, n], [], []], types=[BF, "Scalar", "Scalar"])
            t.op("aten::native_dropout", ts + 3, 35, nid(), dims=[[b, n], [], []], types=[BF, "Scalar", "Scalar"])
            t.launch(ts + 10, 6, [("kernel", "void at::native::fused_dropout_kernel_vec<c10::BFloat16>",
                                   round(rnd.uniform(5, 15), 3))])
            ts += 42
        # backward on the autograd thread
        for layer in range(24):
            b, k, n = 512, 1024, 1024
            t.op("autograd::engine::evaluate_function: AddmmBackward0", ts, 120, nid(), tid=200)
            t.op("AddmmBackward0", ts + 2, 110, nid(), tid=200, dims=[[b, n]], types=[BF])
            for j in range(2):
                t.op("aten::mm", ts + 5 + 50 * j, 45, nid(), tid=200, dims=[[b, n], [n, k]], types=[BF, BF])
                t.launch(ts + 20 + 50 * j, 8, [("kernel", GEMM, round(rnd.uniform(20, 60), 3))], tid=200)
            ts += 125
        # the optimizer: four in-place adds under one op; a library's own launch outside ops
        t.op("Optimizer.step#SGD.step", ts, 80, nid())
        for j in range(4):
            t.op("aten::add_", ts + 3 + 15 * j, 12, nid(), dims=[[1024, 1024], [1024, 1024], []], types=[BF, BF, "Scalar"])
            t.launch(ts + 5 + 15 * j, 6, [("kernel", EW, round(rnd.uniform(10, 30), 3))])
        ts += 90
        t.launch(ts, 5, [("kernel", "ncclDevKernel_AllReduce_Sum_bf16_RING_LL", 40.0)], tid=300)
        ts += 10
        t.ev.append({"ph": "X", "cat": "user_annotation", "name": "ProfilerStep#%d" % step, "pid": 100, "tid": 100,
                     "ts": start, "dur": ts - start, "args": {"External id": nid()}})
        ts += 20
    t.write(path)


if __name__ == "__main__":
    {"cases": cases, "lookalike": lookalike}[sys.argv[1]](sys.argv[2])
