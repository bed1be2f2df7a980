import ArgumentParser
import Foundation
import Logging
import PitchsideCore
import PitchsideTransport

/// `pitchside bench transport`: fan-out of full-resolution GRAY8 frames from one PUB to several
/// subscriber processes over loopback, side by side with a memcpy of the same bytes.
///
/// Frames travel `[topic, PSFrame payload]` in lockstep pacing (credits), so every frame
/// reaches every subscriber and frames/s is what each one really got. Two paths, side by side:
/// `view`, the capture node's (the message written around the pixels in a pooled
/// `FrameBuffer`, sent without a user-space copy; subscribers read it as a `FrameView`, the
/// pixels viewed inside the received message), and `copy` (swift-protobuf: `serializedData()`
/// copies the pixels once on the way out, `PSFrame(serializedBytes:)` once on the way in).
/// See bench/README.md.
struct TransportBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transport",
        abstract: "Loopback fan-out of 1080p GRAY8 frames to 1 and 3 subscribers, against memcpy."
    )

    @Option(help: "Frames per run.")
    var frames = 600

    @Option(help: "Subscriber counts to run, comma separated.")
    var subscribers = "1,3"

    @Option(help: "Transports to run, comma separated (tcp, ipc).")
    var transports = "tcp,ipc"

    @Option(help: "Message paths to run, comma separated: view (in-place encode, zero-copy read) and copy (swift-protobuf).")
    var paths = "view,copy"

    @Option(help: "Frame width (GRAY8).")
    var width = 1920

    @Option(help: "Frame height (GRAY8).")
    var height = 1080

    @Option(help: "Credit window: frames each subscriber may have outstanding.")
    var window = 8

    @Option(help: "libzmq I/O threads in the publisher and in each subscriber.")
    var ioThreads = 2

    @Option(help: "Kernel socket buffer size in bytes (ZMQ_SNDBUF/ZMQ_RCVBUF), 0 for the OS default.")
    var socketBuffer = 0

    @Flag(help: "Run subscribers as threads of this process instead of child processes.")
    var threads = false

    @Option(help: ArgumentHelp("Run as one subscriber of this frame endpoint (internal).", visibility: .hidden))
    var subscriberOf: String?

    @Option(help: ArgumentHelp("Credit endpoint for --subscriber-of (internal).", visibility: .hidden))
    var credits: String?

    @Option(help: ArgumentHelp("Consumer id for --subscriber-of (internal).", visibility: .hidden))
    var consumerID = "bench"

    @Option(help: ArgumentHelp("Message path for --subscriber-of (internal).", visibility: .hidden))
    var path = "view"

    @Option(help: "Subscribers keep freed message memory on the heap (LargeMessageMemory, as workers do): on or off.")
    var reuseMemory = "on"

    func run() throws {
        if let subscriberOf, let credits {
            let result = try BenchSubscriber.run(frames: subscriberOf, credits: credits, consumerID: consumerID,
                                                 window: window, ioThreads: ioThreads, socketBuffer: socketBuffer,
                                                 zeroCopy: path == "view", reuseMemory: reuseMemory == "on")
            print(result.line)
            return
        }
        let bytes = width * height
        let counts = subscribers.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        let kinds = transports.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let pathList = paths.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        for path in pathList where path != "view" && path != "copy" {
            throw ValidationError("unknown path \(path): use view, copy or both")
        }
        print("pitchside bench transport: \(frames) GRAY8 \(width)×\(height) frames (\(bytes) bytes), window \(window), "
              + "\(ioThreads) I/O threads, subscribers as \(threads ? "threads" : "processes"), reuse memory \(reuseMemory), libzmq \(ZMQContext.libraryVersion)")
        print("")
        print("transport  path  subs  per-sub fps  all subs GB/s  sub CPU ms/frame  pub CPU ms/frame  | memcpy fps/thread  memcpy CPU ms/frame  | fps vs memcpy")
        for kind in kinds {
            for count in counts {
                for path in pathList {
                    let (fanOut, publisherCPU) = try runFanOut(transport: kind, path: path, subscriberCount: count, bytes: bytes)
                    let copy = MemcpyBaseline.measure(bytes: bytes, frames: frames, threads: count)
                    let perSubFPS = fanOut.map(\.fps).min() ?? 0
                    let allGBs = fanOut.map { $0.fps * Double(bytes) / 1e9 }.reduce(0, +)
                    let subCPU = fanOut.map(\.cpuMillisecondsPerFrame).max() ?? 0
                    print(kind.padding(toLength: 9, withPad: " ", startingAt: 0) + "  " + path.padding(toLength: 4, withPad: " ", startingAt: 0)
                          + String(format: "  %4d  %11.1f  %13.2f  %16.2f  %16.2f  | %17.1f  %19.2f  | %.3f",
                                   count, perSubFPS, allGBs, subCPU, publisherCPU * 1000 / Double(frames),
                                   copy.fpsPerThread, copy.cpuMillisecondsPerFrame, perSubFPS / copy.fpsPerThread))
                    for (index, result) in fanOut.enumerated() where result.received != frames {
                        print("  subscriber \(index) received \(result.received) of \(frames) frames")
                    }
                }
            }
        }
    }

    /// One run: a PUB behind a credit gate, `subscriberCount` subscribers, `frames` frames.
    /// Returns each subscriber's figures and the publisher process's CPU seconds while publishing.
    private func runFanOut(transport: String, path: String, subscriberCount: Int, bytes: Int) throws -> ([BenchSubscriber.Result], Double) {
        let context = try ZMQContext(ioThreads: ioThreads)
        let pub = try context.socket(.pub)
        try pub.set(.sendHighWaterMark, CreditGate.recommendedHighWaterMark(window: window))
        if socketBuffer > 0 { try pub.set(.sendBuffer, socketBuffer) }
        let (frameEndpoint, creditEndpoint) = endpoints(transport)
        let boundFrames = try pub.bind(frameEndpoint)
        let gate = try CreditGate(context: context, endpoint: creditEndpoint, publisher: pub,
                                  configuration: .init(silenceTimeout: 30), logger: quietLogger())
        defer { gate.close() }

        let children = try (0..<subscriberCount).map { index in
            try startSubscriber(frames: boundFrames, credits: gate.endpoint, consumerID: "bench-\(index)", path: path)
        }
        guard try gate.waitForConsumers(count: subscriberCount, timeout: 60) else {
            throw ValidationError("subscribers did not register within 60 s")
        }

        let pixels = Data((0..<bytes).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let topic = Topic.frame(stream: "bench", rendition: "gray")
        // The view path sends from pooled buffers; in the capture node the converter writes each
        // picture's pixels there, so here a buffer gets its pixels once, when the pool makes it.
        let pool = FrameBufferPool()
        var filled = Set<ObjectIdentifier>()
        let cpuStart = CPUTime.process()
        for seq in 0..<UInt64(frames) {
            guard try gate.waitUntilAllowed(streamID: "bench", seq: seq, timeout: 60) == .allowed else {
                throw ValidationError("publisher stalled at frame \(seq)")
            }
            var frame = PSFrame()
            frame.header.streamID = "bench"
            frame.header.seq = seq
            frame.header.ptsUs = Int64(seq) * 16_667
            frame.header.captureUnixUs = WallClock.nowUnixUs()
            frame.rendition = "gray"
            frame.format = .gray8
            frame.width = UInt32(width)
            frame.height = UInt32(height)
            frame.stride = UInt32(width)
            if path == "view" {
                let buffer = pool.take(pixelCount: bytes)
                if filled.insert(ObjectIdentifier(buffer)).inserted {
                    pixels.withUnsafeBytes { buffer.pixels.copyMemory(from: $0) }
                }
                try buffer.encode(frame)
                try pub.send(topic: topic, frame: buffer)
            } else {
                frame.data = pixels
                try pub.send(frame, topic: topic)
            }
        }
        _ = try gate.waitUntilAllowed(streamID: "bench", seq: UInt64(frames), timeout: 60)
        var end = PSFrame()
        end.header.streamID = "bench"
        end.header.seq = UInt64(frames - 1)
        end.rendition = "gray"
        end.endOfStream = true
        try pub.send(end, topic: topic)
        let cpu = CPUTime.process() - cpuStart
        return (try children.map { try $0.result() }, cpu)
    }

    private func endpoints(_ transport: String) -> (String, String) {
        switch transport {
        case "ipc":
            let base = "\(NSTemporaryDirectory())pitchside-bench-\(getpid())"
            return ("ipc://\(base)-frames", "ipc://\(base)-credits")
        default:
            return ("tcp://127.0.0.1:*", "tcp://127.0.0.1:*")
        }
    }

    private func startSubscriber(frames: String, credits: String, consumerID: String, path: String) throws -> SubscriberHandle {
        if threads {
            return SubscriberHandle.thread {
                try BenchSubscriber.run(frames: frames, credits: credits, consumerID: consumerID,
                                        window: window, ioThreads: ioThreads, socketBuffer: socketBuffer,
                                        zeroCopy: path == "view", reuseMemory: reuseMemory == "on")
            }
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["bench", "transport", "--subscriber-of", frames, "--credits", credits,
                             "--consumer-id", consumerID, "--window", "\(window)", "--io-threads", "\(ioThreads)",
                             "--socket-buffer", "\(socketBuffer)", "--path", path, "--reuse-memory", reuseMemory]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        return SubscriberHandle.process(process, output)
    }
}

/// A running subscriber, as a child process or a thread.
private enum SubscriberHandle {
    case process(Process, Pipe)
    case threaded(DispatchSemaphore, BenchBox)

    static func thread(_ body: @escaping () throws -> BenchSubscriber.Result) -> SubscriberHandle {
        let done = DispatchSemaphore(value: 0)
        let box = BenchBox()
        Thread {
            box.outcome = Result { try body() }
            done.signal()
        }.start()
        return .threaded(done, box)
    }

    func result() throws -> BenchSubscriber.Result {
        switch self {
        case .process(let process, let pipe):
            let data = pipe.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            let text = String(decoding: data, as: UTF8.self)
            guard let line = text.split(separator: "\n").last(where: { $0.hasPrefix("RESULT ") }),
                  let result = BenchSubscriber.Result(line: String(line)) else {
                throw ValidationError("subscriber exited with \(process.terminationStatus) without a result: \(text)")
            }
            return result
        case .threaded(let done, let box):
            done.wait()
            return try box.outcome!.get()
        }
    }
}

private final class BenchBox: @unchecked Sendable {
    var outcome: Result<BenchSubscriber.Result, Error>?
}

/// One subscriber: receives and decodes every frame, acknowledges it, times the run.
enum BenchSubscriber {
    struct Result {
        var received: Int
        var seconds: Double
        var bytes: Int
        /// CPU seconds of the whole subscriber process (with its libzmq threads) over the timed frames.
        var cpuSeconds = 0.0

        var cpuMillisecondsPerFrame: Double { received > 1 ? cpuSeconds * 1000 / Double(received - 1) : 0 }

        /// The clock starts at the first frame, so the frames after it are timed.
        var fps: Double { seconds > 0 ? Double(max(0, received - 1)) / seconds : 0 }
        var line: String { "RESULT received=\(received) seconds=\(seconds) bytes=\(bytes) cpu=\(cpuSeconds)" }

        init(received: Int, seconds: Double, bytes: Int, cpuSeconds: Double) {
            self.received = received
            self.seconds = seconds
            self.bytes = bytes
            self.cpuSeconds = cpuSeconds
        }

        init?(line: String) {
            var fields: [String: String] = [:]
            for pair in line.split(separator: " ").dropFirst() {
                let parts = pair.split(separator: "=", maxSplits: 1)
                if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
            }
            guard let received = fields["received"].flatMap(Int.init), let seconds = fields["seconds"].flatMap(Double.init),
                  let bytes = fields["bytes"].flatMap(Int.init), let cpu = fields["cpu"].flatMap(Double.init) else { return nil }
            self.init(received: received, seconds: seconds, bytes: bytes, cpuSeconds: cpu)
        }
    }

    static func run(frames: String, credits: String, consumerID: String, window: Int, ioThreads: Int,
                    socketBuffer: Int, zeroCopy: Bool, reuseMemory: Bool) throws -> Result {
        if reuseMemory { LargeMessageMemory.reuseFreedBlocks() }
        let context = try ZMQContext(ioThreads: ioThreads)
        let sub = try context.socket(.sub)
        try sub.set(.receiveHighWaterMark, CreditGate.recommendedHighWaterMark(window: window))
        if socketBuffer > 0 { try sub.set(.receiveBuffer, socketBuffer) }
        try sub.connect(frames)
        let client = try CreditClient(context: context, endpoint: credits, consumerID: consumerID,
                                      subscriptions: [Topic.prefix(.frame, stream: "bench")], window: window, subscriber: sub)
        defer { client.close() }
        var gaps = SequenceGapCounter(expectedFirst: 0)
        var start: Double?
        var cpuStart = 0.0
        var bytes = 0
        /// One frame's bookkeeping; true at the end of the stream.
        func handle(header: PSHeader, endOfStream: Bool, pixels: Int) throws -> Bool {
            if endOfStream {
                gaps.finish(lastSeq: header.seq)
                try client.acknowledgeEndOfStream(streamID: header.streamID, lastSeq: header.seq, counts: gaps)
                return true
            }
            if start == nil {
                start = WallClock.monotonicSeconds()
                cpuStart = CPUTime.process()
            }
            gaps.record(header.seq)
            bytes += pixels
            try client.acknowledge(streamID: header.streamID, seq: header.seq, counts: gaps)
            return false
        }
        if zeroCopy {
            let receiver = MessageReceiver<FrameView>(socket: sub, credits: client)
            while let frame = try receiver.receive(timeout: 60)?.message {
                if try handle(header: frame.header, endOfStream: frame.endOfStream, pixels: frame.data.count) { break }
            }
        } else {
            let receiver = MessageReceiver<PSFrame>(socket: sub, credits: client)
            while let frame = try receiver.receive(timeout: 60)?.message {
                if try handle(header: frame.header, endOfStream: frame.endOfStream, pixels: frame.data.count) { break }
            }
        }
        let seconds = start.map { WallClock.monotonicSeconds() - $0 } ?? 0
        return Result(received: gaps.received, seconds: seconds, bytes: bytes, cpuSeconds: CPUTime.process() - cpuStart)
    }
}

/// The copy ceiling: `threads` threads each copying a frame's bytes `frames` times.
enum MemcpyBaseline {
    struct Figures {
        var fpsPerThread: Double
        var gigabytesPerSecond: Double
        var cpuMillisecondsPerFrame: Double
    }

    /// Frames rotate through `buffers` sources and destinations per thread (16 MiB each way for
    /// 1080p GRAY8), more than the caches hold, as frames in flight do.
    static func measure(bytes: Int, frames: Int, threads: Int, buffers: Int = 8) -> Figures {
        let sources = (0..<buffers).map { _ in makeBuffer(bytes, fill: 7) }
        defer { sources.forEach { $0.deallocate() } }
        let group = DispatchGroup()
        let seconds = Shared(Array(repeating: 0.0, count: threads))
        let cpu = Shared(Array(repeating: 0.0, count: threads))
        let checksums = Shared(Array(repeating: UInt8(0), count: threads))
        let shared = UnsafeSendable(sources)
        for index in 0..<threads {
            group.enter()
            Thread {
                let sources = shared.value
                let destinations = (0..<buffers).map { _ in makeBuffer(bytes, fill: 0) }
                let start = WallClock.monotonicSeconds()
                let cpuStart = CPUTime.thread()
                var checksum: UInt8 = 0
                for frame in 0..<frames {
                    let destination = destinations[frame % buffers]
                    memcpy(destination, sources[frame % buffers], bytes)
                    // Read the copy back so that the copies cannot be optimised away.
                    checksum &+= destination.load(fromByteOffset: (frame &* 4093) % bytes, as: UInt8.self)
                }
                let elapsed = WallClock.monotonicSeconds() - start
                let used = CPUTime.thread() - cpuStart
                cpu.update { $0[index] = used }
                destinations.forEach { $0.deallocate() }
                seconds.update { $0[index] = elapsed }
                checksums.update { $0[index] = checksum }
                group.leave()
            }.start()
        }
        group.wait()
        let slowest = seconds.value.max() ?? 1
        let fps = Double(frames) / slowest
        return Figures(fpsPerThread: fps, gigabytesPerSecond: fps * Double(bytes * threads) / 1e9,
                       cpuMillisecondsPerFrame: (cpu.value.max() ?? 0) * 1000 / Double(frames))
    }

    private static func makeBuffer(_ bytes: Int, fill: Int32) -> UnsafeMutableRawPointer {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: bytes, alignment: 64)
        memset(buffer, fill, bytes)
        return buffer
    }
}

/// CPU time used (user + system), which unlike wall time does not depend on how busy the machine is.
enum CPUTime {
    /// The whole process, all threads.
    static func process() -> Double { usage(0) }  // RUSAGE_SELF
    /// The calling thread.
    static func thread() -> Double { usage(1) }  // RUSAGE_THREAD (a GNU extension)

    private static func usage(_ who: Int32) -> Double {
        var usage = rusage()
        getrusage(who, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
            + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}

/// Keeps the credit gate's registrations out of the benchmark's output.
private func quietLogger() -> Logger {
    var logger = Logger(label: "pitchside.bench.transport")
    logger.logLevel = .warning
    return logger
}

/// Hands read-only buffers to the copy threads.
private struct UnsafeSendable<T>: @unchecked Sendable {
    let value: T
    init(_ value: T) { self.value = value }
}

private final class Shared<T>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: T
    init(_ value: T) { storage = value }
    var value: T { lock.withLock { storage } }
    func update(_ body: (inout T) -> Void) { lock.withLock { body(&storage) } }
}
