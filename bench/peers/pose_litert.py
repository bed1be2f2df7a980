#!/usr/bin/env python3
"""LiteRT peer of Pitchside's raw pose-model invoke, for `pitchside bench pose`.

Runs the same .tflite files with the same runtime version (the ai-edge-litert 2.3.0 wheel:
`pip install ai-edge-litert==2.3.0`) through both of its Python APIs, one thread unless told:
- the classic Interpreter (num_threads=N; XNNPACK delegate applied by default);
- the CompiledModel API (CPU accelerator, CpuOptions(num_threads=N)), the API Pitchside binds in C.
Each model's input is filled once with a fixed pattern in the model's value range, or with the
float32 NHWC file given by --landmark-input / --detector-input (`pitchside bench pose --peer-python`
writes the crops it tracked, so both sides invoke on identical bytes), then invoked `--invokes` times;
the median of each of `--rounds` rounds is taken and the best round reported, as wall time ("ms")
and as the process's processor time ("cpu_ms": on one thread, the figure least disturbed by other
work on a shared machine). Prints one JSON object.

    python3 pose_litert.py [--models DIR] [--threads 1] [--invokes 100] [--rounds 3]
"""
import argparse
import json
import os
import statistics
import time

import numpy as np
from ai_edge_litert import interpreter as tfl
from ai_edge_litert.compiled_model import CompiledModel, CpuOptions, HardwareAccelerator, Options

MODELS = {
    "landmark": ("pose_landmark_full.tflite", 0.0, 1.0),
    "detector": ("pose_detection.tflite", -1.0, 1.0),
}


def fixed_input(shape, low, high):
    """A smooth, deterministic image-like pattern in [low, high]."""
    n, h, w, c = shape
    y, x, ch = np.meshgrid(np.arange(h), np.arange(w), np.arange(c), indexing="ij")
    pattern = 0.5 + 0.5 * np.sin(0.05 * x + 0.07 * y + 2.0 * ch)
    return (low + (high - low) * pattern).astype(np.float32).reshape(shape)


def median_of(run, invokes, rounds):
    """Best round's median wall time and median processor time (the process's, all threads) per call."""
    run()  # warm-up: first invoke allocates and packs weights
    best = (float("inf"), float("inf"))
    for _ in range(rounds):
        wall, cpu = [], []
        for _ in range(invokes):
            start, start_cpu = time.perf_counter(), time.process_time()
            run()
            wall.append(time.perf_counter() - start)
            cpu.append(time.process_time() - start_cpu)
        best = (min(best[0], statistics.median(wall)), min(best[1], statistics.median(cpu)))
    return best


def interpreter_invoke(path, data, threads, invokes, rounds):
    interp = tfl.Interpreter(model_path=path, num_threads=threads)
    interp.allocate_tensors()
    interp.set_tensor(interp.get_input_details()[0]["index"], data)
    return median_of(interp.invoke, invokes, rounds)


def compiled_invoke(path, data, threads, invokes, rounds):
    options = Options(hardware_accelerators=HardwareAccelerator.CPU, cpu_options=CpuOptions(num_threads=threads))
    model = CompiledModel.from_file(path, options=options)
    inputs = model.create_input_buffers(0)
    outputs = model.create_output_buffers(0)
    inputs[0].write(data)
    return median_of(lambda: model.run_by_index(0, inputs, outputs), invokes, rounds)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--models", default=os.path.expanduser(
        os.path.join(os.environ.get("PITCHSIDE_CACHE", "~/.cache/pitchside"), "models")))
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--invokes", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--model", choices=["both", *MODELS], default="both", help="which model(s) to invoke")
    parser.add_argument("--api", choices=["both", "interpreter", "compiled"], default="both", help="which API(s) to use")
    parser.add_argument("--landmark-input", help="float32 NHWC landmark input (256*256*3 values) instead of the pattern")
    parser.add_argument("--detector-input", help="float32 NHWC detector input (224*224*3 values) instead of the pattern")
    args = parser.parse_args()

    result = {"runtime": "ai-edge-litert", "threads": args.threads, "invokes": args.invokes,
              "rounds": args.rounds, "load_average": os.getloadavg()[0], "ms": {}, "cpu_ms": {}}
    for name, (file, low, high) in MODELS.items():
        if args.model not in ("both", name):
            continue
        path = os.path.join(args.models, file)
        shape = tfl.Interpreter(model_path=path).get_input_details()[0]["shape"]
        data = fixed_input(shape, low, high)
        given = args.landmark_input if name == "landmark" else args.detector_input
        if given:
            data = np.fromfile(given, dtype=np.float32).reshape(shape)
        for api, measure in (("interpreter", interpreter_invoke), ("compiled model", compiled_invoke)):
            if args.api not in ("both", api.split()[0]):
                continue
            wall, cpu = measure(path, data, args.threads, args.invokes, args.rounds)
            result["ms"][f"{name}, {api}"] = round(1000 * wall, 3)
            result["cpu_ms"][f"{name}, {api}"] = round(1000 * cpu, 3)
    print(json.dumps(result, indent=1))


if __name__ == "__main__":
    main()
