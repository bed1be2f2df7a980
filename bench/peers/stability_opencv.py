#!/usr/bin/env python3
"""OpenCV peer of Pitchside's scene-stability registration, for `pitchside bench detection`.

Registers each frame on the previous one with cv2.phaseCorrelate (FFT phase correlation,
sub-pixel peak), one thread, in two ways: at full resolution with a Hanning window (the usual
call), and on frames first reduced with cv2.resize INTER_AREA to the same working width the
Swift analyser uses (like for like). Reads raw GRAY8 frames (width x height bytes each,
concatenated), loaded before timing. Prints one JSON object.

    python3 stability_opencv.py FRAMES.gray WIDTH HEIGHT [--work-width 320] [--repeat 3]
"""
import argparse
import json
import time

import cv2
import numpy as np

cv2.setNumThreads(1)


def run(frames, work_width):
    h, w = frames[0].shape
    size = (work_width, int(round(h * work_width / w))) if work_width else (w, h)
    window = cv2.createHanningWindow(size, cv2.CV_32F)
    shifts = []
    start = time.perf_counter()
    prev = None
    for f in frames:
        img = cv2.resize(f, size, interpolation=cv2.INTER_AREA) if work_width else f
        cur = img.astype(np.float32)
        if prev is not None:
            (dx, dy), _ = cv2.phaseCorrelate(prev, cur, window)
            scale = w / size[0]
            shifts.append((dx * scale, dy * scale))
        prev = cur
    seconds = time.perf_counter() - start
    return len(frames) / seconds, shifts


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("path")
    ap.add_argument("width", type=int)
    ap.add_argument("height", type=int)
    ap.add_argument("--work-width", type=int, default=320)
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()
    data = np.fromfile(a.path, dtype=np.uint8)
    n = data.size // (a.width * a.height)
    frames = [data[i * a.width * a.height:(i + 1) * a.width * a.height].reshape(a.height, a.width) for i in range(n)]
    full = max(run(frames, 0)[0] for _ in range(a.repeat))
    fps_small, shifts = max((run(frames, a.work_width) for _ in range(a.repeat)), key=lambda r: r[0])
    print(json.dumps({"frames": n, "fps_full": full, "fps_work": fps_small, "work_width": a.work_width,
                      "shifts": shifts}))


if __name__ == "__main__":
    main()
