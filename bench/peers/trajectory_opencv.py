#!/usr/bin/env python3
"""OpenCV peer of Pitchside's trajectory detector, for `pitchside bench trajectory`.

The same algorithm class written with OpenCV's fastest calls: box-downsample
(cv2.resize INTER_AREA), a background that is the per-pixel median of three
recent frames (cv2.min / cv2.max), cv2.absdiff, cv2.threshold, a 3x3
morphological open, cv2.findContours + cv2.moments, size filter, centroid
refined on the full-resolution crop, nearest-neighbour association with a
projectile prediction, and np.polyfit for y = a x^2 + b x + c.

Reads raw frames so that it sees exactly the bytes the Swift analyser sees:
GRAY8 (FRAMES.gray, width x height bytes each) or YUV420P (FRAMES.yuv, the Y
plane then U and V at half width and height, the trajectory worker's
rendition). With YUV420P it does what the Swift analyser does with colour: U
and V, brought to the search grid, are differenced against their own median
background and thresholded too (OR of the three masks), and the full-resolution
refinement ORs the luma mask with the chroma masks (chroma crops doubled with
INTER_NEAREST). Frames are loaded into memory before timing starts. Prints one
JSON object.

    python3 trajectory_opencv.py FRAMES.gray|FRAMES.yuv WIDTH HEIGHT [--fps 30] [--factor 2]
"""
import argparse
import json
import time

import cv2
import numpy as np

cv2.setNumThreads(1)


def median3(a, b, c):
    return cv2.max(cv2.min(a, b), cv2.min(cv2.max(a, b), c))


class Track:
    __slots__ = ("t", "x", "y", "d", "missed", "fit")

    def __init__(self, t, x, y, d):
        self.t, self.x, self.y, self.d = [t], [x], [y], [d]
        self.missed = 0
        self.fit = None

    def refit(self):
        if len(self.t) >= 3:
            t = np.asarray(self.t)
            self.fit = (np.polyfit(t, self.x, 1), np.polyfit(t, self.y, 2))

    def predict(self, t, max_speed):
        size = sum(self.d) / len(self.d)
        n = len(self.t)
        dt = t - self.t[-1]
        if n >= 4 and self.fit is not None:
            px, py = self.fit
            return np.polyval(px, t), np.polyval(py, t), 4 + 0.5 * size + 3
        if n >= 2:
            span = self.t[-1] - self.t[-2]
            vx = (self.x[-1] - self.x[-2]) / span
            vy = (self.y[-1] - self.y[-2]) / span
            return self.x[-1] + vx * dt, self.y[-1] + vy * dt, 4 + 0.5 * size + 0.3 * np.hypot(vx, vy) * dt
        return self.x[-1], self.y[-1], 2 + size + max_speed * dt


def to_grid(plane, lw, lh):
    """A chroma plane (half size) on the search grid."""
    ph, pw = plane.shape
    if (pw, ph) == (lw, lh):
        return plane
    if pw > lw:
        return cv2.resize(plane, (lw, lh), interpolation=cv2.INTER_AREA)
    return cv2.resize(plane, (lw, lh), interpolation=cv2.INTER_NEAREST)


def run(frames, fps, factor, min_size, max_size, length, lags=(2, 4, 6), chroma=None):
    n, h, w = frames.shape
    lw, lh = w // factor, h // factor
    small = []
    small_u, small_v = [], []
    kernel = np.ones((3, 3), np.uint8)
    tracks = []
    observations = 0
    min_px, max_px = min_size * w, max_size * w
    max_speed = 1.6 * w
    for i in range(n):
        full = frames[i]
        cur = cv2.resize(full, (lw, lh), interpolation=cv2.INTER_AREA) if factor > 1 else full
        small.append(cur)
        if len(small) > max(lags) + 1:
            small.pop(0)
        if chroma is not None:
            small_u.append(to_grid(chroma[0][i], lw, lh))
            small_v.append(to_grid(chroma[1][i], lw, lh))
            if len(small_u) > max(lags) + 1:
                small_u.pop(0)
                small_v.pop(0)
        t = i / fps
        blobs = []
        if len(small) == max(lags) + 1:
            h1, h2, h3 = (small[-1 - k] for k in lags)
            bg = median3(h1, h2, h3)
            diff = cv2.absdiff(cur, bg)
            _, mask = cv2.threshold(diff, 14, 255, cv2.THRESH_BINARY)
            if chroma is not None:
                for planes in (small_u, small_v):
                    cbg = median3(*(planes[-1 - k] for k in lags))
                    _, cmask = cv2.threshold(cv2.absdiff(planes[-1], cbg), 10, 255, cv2.THRESH_BINARY)
                    mask = cv2.bitwise_or(mask, cmask)
            mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, kernel)
            contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
            for c in contours:
                x, y, bw, bh = cv2.boundingRect(c)
                if max(bw, bh) * factor > 2.5 * max_px:
                    continue
                # Refine on the full-resolution crop.
                x0, y0 = max(0, (x - 1) * factor), max(0, (y - 1) * factor)
                x1, y1 = min(w, (x + bw + 1) * factor), min(h, (y + bh + 1) * factor)
                fh1, fh2, fh3 = (frames[i - k][y0:y1, x0:x1] for k in lags)
                d = cv2.absdiff(full[y0:y1, x0:x1], median3(fh1, fh2, fh3))
                _, m = cv2.threshold(d, 20, 255, cv2.THRESH_BINARY)
                if chroma is not None:
                    cx0, cy0, cx1, cy1 = x0 // 2, y0 // 2, (x1 + 1) // 2, (y1 + 1) // 2
                    for planes in chroma:
                        ch = [planes[i - k][cy0:cy1, cx0:cx1] for k in lags]
                        cd = cv2.absdiff(planes[i][cy0:cy1, cx0:cx1], median3(*ch))
                        _, cm = cv2.threshold(cd, 12, 255, cv2.THRESH_BINARY)
                        cm = cv2.resize(cm, None, fx=2, fy=2, interpolation=cv2.INTER_NEAREST)
                        m = cv2.bitwise_or(m, cm[y0 - 2 * cy0:y1 - 2 * cy0, x0 - 2 * cx0:x1 - 2 * cx0])
                mo = cv2.moments(m, binaryImage=True)
                if mo["m00"] <= 0:
                    continue
                area = mo["m00"]
                diam = 2 * np.sqrt(area / np.pi)
                if diam < min_px or diam > max_px:
                    continue
                blobs.append((x0 + mo["m10"] / area + 0.5, y0 + mo["m01"] / area + 0.5, diam))
        # Nearest-neighbour association, mature tracks first.
        pairs = []
        for ti, tr in enumerate(tracks):
            px, py, gate = tr.predict(t, max_speed)
            rank = 0 if len(tr.t) >= 4 else (1 if len(tr.t) >= 2 else 2)
            for bi, (bx, by, bd) in enumerate(blobs):
                dist = np.hypot(bx - px, by - py)
                if dist <= gate:
                    pairs.append((rank + dist / gate, ti, bi))
        pairs.sort()
        used_t, used_b = set(), set()
        for _, ti, bi in pairs:
            if ti in used_t or bi in used_b:
                continue
            used_t.add(ti)
            used_b.add(bi)
            tr = tracks[ti]
            bx, by, bd = blobs[bi]
            tr.t.append(t); tr.x.append(bx); tr.y.append(by); tr.d.append(bd)
            tr.missed = 0
            tr.refit()
            if len(tr.t) >= length:
                np.polyfit(np.asarray(tr.x) / w, np.asarray(tr.y) / h, 2)
                observations += 1
        for ti, tr in enumerate(tracks):
            if ti not in used_t:
                tr.missed += 1
        tracks = [tr for tr in tracks if tr.missed <= 3]
        for bi, (bx, by, bd) in enumerate(blobs):
            if bi not in used_b:
                tracks.append(Track(t, bx, by, bd))
    return observations


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("frames")
    p.add_argument("width", type=int)
    p.add_argument("height", type=int)
    p.add_argument("--fps", type=float, default=30)
    p.add_argument("--factor", type=int, default=2)
    p.add_argument("--min-size", type=float, default=0.004)
    p.add_argument("--max-size", type=float, default=0.04)
    p.add_argument("--length", type=int, default=15)
    p.add_argument("--repeat", type=int, default=3)
    a = p.parse_args()
    raw = np.fromfile(a.frames, dtype=np.uint8)
    chroma = None
    if a.frames.endswith(".yuv"):
        cw, ch = a.width // 2, a.height // 2
        per = a.width * a.height + 2 * cw * ch
        raw = raw[: len(raw) // per * per].reshape(-1, per)
        frames = np.ascontiguousarray(raw[:, : a.width * a.height].reshape(-1, a.height, a.width))
        u = raw[:, a.width * a.height: a.width * a.height + cw * ch].reshape(-1, ch, cw)
        v = raw[:, a.width * a.height + cw * ch:].reshape(-1, ch, cw)
        chroma = (np.ascontiguousarray(u), np.ascontiguousarray(v))
    else:
        frames = np.ascontiguousarray(raw.reshape(-1, a.height, a.width))
    best = None
    obs = 0
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        obs = run(frames, a.fps, a.factor, a.min_size, a.max_size, a.length, chroma=chroma)
        dt = time.perf_counter() - t0
        best = dt if best is None else min(best, dt)
    print(json.dumps({
        "frames": int(frames.shape[0]), "seconds": best, "fps": frames.shape[0] / best,
        "observations": obs, "opencv": cv2.__version__, "threads": cv2.getNumThreads(),
    }))


if __name__ == "__main__":
    main()
