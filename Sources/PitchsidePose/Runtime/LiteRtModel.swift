import CLiteRt
import Foundation
import PitchsideCore

/// One compiled `.tflite` model on the CPU (XNNPACK) with its input and output
/// buffers allocated once: fill inputs, `run()`, read outputs.
///
/// Owns every LiteRT handle it creates and releases them in reverse order.
/// Not thread-safe: use one instance from one thread at a time (give each
/// thread its own model).
///
/// ```swift
/// let model = try LiteRtModel(runtime: runtime, path: path, threads: 1)
/// model.withInput(0) { $0.update(repeating: 0) }
/// try model.run()
/// let presence = model.withOutput(1) { $0[0] }
/// ```
public final class LiteRtModel {
    public let runtime: LiteRtRuntime
    public let path: String
    public let threads: Int
    public let inputs: [TensorShape]
    public let outputs: [TensorShape]
    /// What LiteRT printed while loading (its probe messages), for diagnostics.
    public let loadLog: String
    /// Calls of `run()` so far, the wall time they took and the calling
    /// thread's processor time inside them: lets a caller tell the model's
    /// share of its own time from everything around it.
    public private(set) var runs = 0
    public private(set) var runSeconds = 0.0
    public private(set) var runThreadSeconds = 0.0

    private let model: LiteRtModel_
    private let options: LiteRtOptions
    private let compiled: LiteRtCompiledModel
    private var inputBuffers: [LiteRtTensorBuffer?]
    private var outputBuffers: [LiteRtTensorBuffer?]
    private var api: PSLiteRtApi { runtime.api }

    /// Loads and compiles `path` for the CPU with `threads` XNNPACK threads.
    /// - Parameter quiet: capture LiteRT's load-time chatter on standard error
    ///   (it is kept in `loadLog` and quoted in errors).
    public init(runtime: LiteRtRuntime, path: String, threads: Int = 1, quiet: Bool = true) throws {
        guard FileManager.default.fileExists(atPath: path) else {
            throw PoseError.missingFile(what: "model", path: path)
        }
        self.runtime = runtime
        self.path = path
        self.threads = max(1, threads)
        let api = runtime.api

        var log = ""
        func load<T>(_ body: () throws -> T) rethrows -> T {
            guard quiet else { return try body() }
            let (value, text) = try StderrCapture.run(body)
            log += text
            return value
        }

        var rawModel: LiteRtModel_?
        let status = load { api.CreateModelFromFile!(runtime.environment, path, &rawModel) }
        guard status == 0, let rawModel else {
            throw PoseError.unreadableModel(
                path: path, reason: "LiteRtCreateModelFromFile status \(status)" + LiteRtModel.tail(log))
        }
        // From here on, every handle created is released if a later step fails.
        var cleanup: [() -> Void] = [{ api.DestroyModel!(rawModel) }]
        func fail(_ error: Error) -> Error {
            for release in cleanup.reversed() { release() }
            return error
        }

        do {
            let (ins, outs) = try LiteRtModel.signatureShapes(api: api, model: rawModel, path: path)
            var rawOptions: LiteRtOptions?
            try runtime.check(api.CreateOptions!(&rawOptions), "CreateOptions")
            guard let rawOptions else { throw PoseError.runtimeCall(function: "CreateOptions", status: -1) }
            cleanup.append { api.DestroyOptions!(rawOptions) }
            try runtime.check(api.SetOptionsHardwareAccelerators!(rawOptions, 1), "SetOptionsHardwareAccelerators")
            // The CPU options helpers are not exported; XNNPACK reads a TOML payload.
            let payload = ps_litert_strdup("num_threads = \(self.threads)\n")
            var opaque: LiteRtOpaqueOptions?
            let created = api.CreateOpaqueOptions!("xnnpack", payload, ps_litert_free, &opaque)
            guard created == 0, let opaque else {
                ps_litert_free(payload)
                throw PoseError.runtimeCall(function: "CreateOpaqueOptions", status: created)
            }
            let added = api.AddOpaqueOptions!(rawOptions, opaque)
            if added != 0 {
                api.DestroyOpaqueOptions!(opaque)
                throw PoseError.runtimeCall(function: "AddOpaqueOptions", status: added)
            }

            var rawCompiled: LiteRtCompiledModel?
            let compiledStatus = load { api.CreateCompiledModel!(runtime.environment, rawModel, rawOptions, &rawCompiled) }
            guard compiledStatus == 0, let rawCompiled else {
                throw PoseError.unreadableModel(
                    path: path, reason: "LiteRtCreateCompiledModel status \(compiledStatus)" + LiteRtModel.tail(log))
            }
            cleanup.append { api.DestroyCompiledModel!(rawCompiled) }

            var inBuffers: [LiteRtTensorBuffer?] = []
            var outBuffers: [LiteRtTensorBuffer?] = []
            for (index, shape) in ins.enumerated() {
                let buffer = try LiteRtModel.makeBuffer(
                    runtime: runtime, compiled: rawCompiled, index: index, shape: shape, input: true)
                cleanup.append { api.DestroyTensorBuffer!(buffer) }
                inBuffers.append(buffer)
            }
            for (index, shape) in outs.enumerated() {
                let buffer = try LiteRtModel.makeBuffer(
                    runtime: runtime, compiled: rawCompiled, index: index, shape: shape, input: false)
                cleanup.append { api.DestroyTensorBuffer!(buffer) }
                outBuffers.append(buffer)
            }
            self.model = rawModel
            self.options = rawOptions
            self.compiled = rawCompiled
            self.inputs = ins
            self.outputs = outs
            self.inputBuffers = inBuffers
            self.outputBuffers = outBuffers
            self.loadLog = log
        } catch {
            throw fail(error)
        }
    }

    deinit {
        for buffer in outputBuffers { api.DestroyTensorBuffer!(buffer) }
        for buffer in inputBuffers { api.DestroyTensorBuffer!(buffer) }
        api.DestroyCompiledModel!(compiled)
        api.DestroyOptions!(options)
        api.DestroyModel!(model)
    }

    /// Runs the model on the current contents of the input buffers.
    public func run() throws {
        let start = WallClock.monotonicSeconds(), startThread = ThreadClock.seconds()
        let status = inputBuffers.withUnsafeMutableBufferPointer { ins in
            outputBuffers.withUnsafeMutableBufferPointer { outs in
                api.RunCompiledModel!(compiled, 0, ins.count, ins.baseAddress, outs.count, outs.baseAddress)
            }
        }
        runSeconds += WallClock.monotonicSeconds() - start
        runThreadSeconds += ThreadClock.seconds() - startThread
        runs += 1
        try runtime.check(status, "RunCompiledModel")
    }

    /// Gives write access to input `index` as float32 values.
    public func withInput<R>(_ index: Int, _ body: (UnsafeMutableBufferPointer<Float>) throws -> R) rethrows -> R {
        try withLocked(inputBuffers[index]!, count: inputs[index].count, mode: 1, body)
    }

    /// Gives read access to output `index` as float32 values.
    public func withOutput<R>(_ index: Int, _ body: (UnsafeBufferPointer<Float>) throws -> R) rethrows -> R {
        try withLocked(outputBuffers[index]!, count: outputs[index].count, mode: 0) { try body(UnsafeBufferPointer($0)) }
    }

    private func withLocked<R>(
        _ buffer: LiteRtTensorBuffer, count: Int, mode: LiteRtTensorBufferLockMode,
        _ body: (UnsafeMutableBufferPointer<Float>) throws -> R
    ) rethrows -> R {
        var memory: UnsafeMutableRawPointer?
        // Host-memory buffers made by this class always lock; a failure here is a broken runtime.
        let status = api.LockTensorBuffer!(buffer, &memory, mode)
        precondition(status == 0 && memory != nil, "LiteRtLockTensorBuffer failed with status \(status)")
        defer { _ = api.UnlockTensorBuffer!(buffer) }
        let floats = memory!.bindMemory(to: Float.self, capacity: count)
        return try body(UnsafeMutableBufferPointer(start: floats, count: count))
    }

    // MARK: - Loading helpers

    private static func signatureShapes(api: PSLiteRtApi, model: LiteRtModel_, path: String) throws
        -> (inputs: [TensorShape], outputs: [TensorShape])
    {
        // Models without signature definitions get a placeholder signature at index 0.
        var signature: LiteRtSignature?
        let status = api.GetModelSignature!(model, 0, &signature)
        guard status == 0, let signature else {
            throw PoseError.unreadableModel(path: path, reason: "no signature (status \(status))")
        }
        var inputCount: LiteRtParamIndex = 0
        var outputCount: LiteRtParamIndex = 0
        _ = api.GetNumSignatureInputs!(signature, &inputCount)
        _ = api.GetNumSignatureOutputs!(signature, &outputCount)
        func shape(_ tensor: LiteRtTensor?) throws -> TensorShape {
            var type = LiteRtRankedTensorType()
            guard let tensor, api.GetRankedTensorType!(tensor, &type) == 0 else {
                throw PoseError.unreadableModel(path: path, reason: "a tensor has no ranked type")
            }
            let rank = Int(type.layout.rank)
            let dims = withUnsafeBytes(of: type.layout.dimensions) { raw in
                Array(raw.bindMemory(to: Int32.self).prefix(rank)).map(Int.init)
            }
            return TensorShape(elementType: type.element_type, dimensions: dims)
        }
        var ins: [TensorShape] = []
        var outs: [TensorShape] = []
        for i in 0..<inputCount {
            var tensor: LiteRtTensor?
            _ = api.GetSignatureInputTensorByIndex!(signature, i, &tensor)
            ins.append(try shape(tensor))
        }
        for i in 0..<outputCount {
            var tensor: LiteRtTensor?
            _ = api.GetSignatureOutputTensorByIndex!(signature, i, &tensor)
            outs.append(try shape(tensor))
        }
        for t in ins + outs where t.elementType != TensorShape.float32 {
            throw PoseError.wrongModel(path: path, expected: "float32 tensors", found: "\(t)")
        }
        return (ins, outs)
    }

    private static func makeBuffer(
        runtime: LiteRtRuntime, compiled: LiteRtCompiledModel, index: Int, shape: TensorShape, input: Bool
    ) throws -> LiteRtTensorBuffer {
        let api = runtime.api
        var requirements: LiteRtTensorBufferRequirements?
        let status = input
            ? api.GetCompiledModelInputBufferRequirements!(compiled, 0, index, &requirements)
            : api.GetCompiledModelOutputBufferRequirements!(compiled, 0, index, &requirements)
        try runtime.check(status, input ? "GetCompiledModelInputBufferRequirements" : "GetCompiledModelOutputBufferRequirements")
        var type = LiteRtRankedTensorType()
        type.element_type = shape.elementType
        type.layout.rank = UInt32(shape.dimensions.count)
        withUnsafeMutableBytes(of: &type.layout.dimensions) { raw in
            let dims = raw.bindMemory(to: Int32.self)
            for (i, d) in shape.dimensions.enumerated() { dims[i] = Int32(d) }
        }
        var buffer: LiteRtTensorBuffer?
        try runtime.check(
            api.CreateManagedTensorBufferFromRequirements!(runtime.environment, &type, requirements, &buffer),
            "CreateManagedTensorBufferFromRequirements")
        guard let buffer else { throw PoseError.runtimeCall(function: "CreateManagedTensorBufferFromRequirements", status: -1) }
        var size = 0
        if api.GetTensorBufferSize!(buffer, &size) == 0, size < shape.count * 4 {
            api.DestroyTensorBuffer!(buffer)
            throw PoseError.runtimeCall(function: "GetTensorBufferSize", status: -1)
        }
        return buffer
    }

    private static func tail(_ log: String) -> String {
        let lines = log.split(separator: "\n").suffix(4)
        return lines.isEmpty ? "" : " (LiteRT said: " + lines.joined(separator: " | ") + ")"
    }
}

/// The C handle type, named apart from the Swift class above.
typealias LiteRtModel_ = CLiteRt.LiteRtModel

/// Processor time of the calling thread (not wall time: a busy machine does not inflate it
/// by waiting, and other threads' work is not in it).
public enum ThreadClock {
    public static func seconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
