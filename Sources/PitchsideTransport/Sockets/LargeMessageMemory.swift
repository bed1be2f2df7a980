import CZeroMQ

/// Memory for large received messages (frames).
///
/// libzmq mallocs the body of every large message it receives. glibc serves a block of more
/// than 128 KiB–32 MiB (its adaptive mmap threshold) from fresh pages and gives them back on
/// free, so a subscriber of 2 MB frames took ~500 page faults and 2 MB of kernel zeroing per
/// frame. Keeping blocks up to 64 MiB on the heap, and not trimming it below 256 MiB, lets every
/// frame reuse the previous frames' memory (measured: a third fewer CPU ms per received 1080p
/// frame, see bench/README.md).
public enum LargeMessageMemory {
    /// Call once, early, in a process that receives frames.
    public static func reuseFreedBlocks() {
        _ = mallopt(M_MMAP_THRESHOLD, 64 << 20)
        _ = mallopt(M_TRIM_THRESHOLD, 256 << 20)
    }
}
