#!/bin/sh
# device_round5.sh - one call on the GPU machine for issues 43, 44 and 46 (the session's device time is short: one batch):
# the torch.profiler handler from the wheel (dist/, carried), the module-view recordings, issue 43's recordings and the
# CUDA-graph field probe, each under its own time limit so that one stuck step loses only itself. Logs to $OUT/*.log.
# Usage (on the machine, from the tree's top): sh tools/device_round5.sh
set -u
O=${OUT:?}
T=$PWD
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader >"$O/gpu.txt" 2>&1
python3 -c 'import torch, transformers; print(torch.__version__, transformers.__version__)' >>"$O/gpu.txt" 2>&1
# the handler, once, from the wheel in a venv that sees the machine's torch
python3 -m venv --system-site-packages /tmp/pfvenv >"$O/handler.log" 2>&1
V=/tmp/pfvenv
"$V/bin/python" -m pip install --no-index --no-deps "$T"/dist/profana-*.whl >>"$O/handler.log" 2>&1
(cd /tmp && timeout 80 "$V/bin/python" "$T/tools/run_handler.py" "$O/handler") >>"$O/handler.log" 2>&1
echo "handler rc $?" >>"$O/handler.log"
rm -f "$O"/handler/traces/*.summary.json.tmp
timeout 170 python3 tools/record_modules.py "$O/modules" qwen2_train llama_generate mlp_stack >"$O/modules.log" 2>&1
echo "modules rc $?" >>"$O/modules.log"
timeout 90 python3 tools/record_round5.py "$O/round5" >"$O/round5.log" 2>&1
echo "round5 rc $?" >>"$O/round5.log"
timeout 30 python3 tools/probe_graph_fields.py "$O/graph" >"$O/graph.log" 2>&1
echo "graph rc $?" >>"$O/graph.log"
ls -laR "$O" | head -60
