// swift-tools-version:6.0
import PackageDescription

// Pitchside: a distributed cornhole analyser. See README.md and docs/ARCHITECTURE.md.
let package = Package(
    name: "Pitchside",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "pitchside", targets: ["pitchside"]),
        .library(name: "PitchsideCore", targets: ["PitchsideCore"]),
        .library(name: "PitchsideTransport", targets: ["PitchsideTransport"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-protobuf", from: "1.28.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
    ],
    targets: [
        // Thin C modules over system libraries (Debian packages, see ops/setup).
        .systemLibrary(name: "CZeroMQ", path: "Sources/CZeroMQ"),
        .systemLibrary(name: "CCairo", path: "Sources/CCairo"),
        .target(
            name: "CFFmpeg",
            path: "Sources/CFFmpeg",
            linkerSettings: [
                .linkedLibrary("avdevice"), .linkedLibrary("avformat"), .linkedLibrary("avcodec"),
                .linkedLibrary("swscale"), .linkedLibrary("avutil"),
            ]
        ),

        // Declarations of the LiteRT C API (the runtime is fetched at set-up, see ops/fetch-models).
        .target(name: "CLiteRt", path: "Sources/CLiteRt"),

        // Generated wire messages, frames, geometry, configuration.
        .target(
            name: "PitchsideCore",
            dependencies: [
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Yams", package: "Yams"),
            ],
            exclude: []
        ),
        // ZeroMQ sockets, topics, credit-based flow control.
        .target(
            name: "PitchsideTransport",
            dependencies: ["CZeroMQ", "PitchsideCore", .product(name: "Logging", package: "swift-log")]
        ),
        // Decode, encode, pixel conversion, frame sources (FFmpeg).
        .target(name: "PitchsideMedia", dependencies: ["CFFmpeg", "PitchsideCore"]),
        // Pure analysers: trajectory, board, stability, census.
        // Optimized in debug builds too: its pixel loops are ~50× slower unoptimized, which
        // would make the tests that feed it video slow.
        .target(
            name: "PitchsideVision", dependencies: ["PitchsideCore"],
            swiftSettings: [.unsafeFlags(["-O"], .when(configuration: .debug))]
        ),
        // Synthetic games with exact ground truth (Cairo).
        .target(
            name: "PitchsideSynth",
            dependencies: [
                "CCairo", "PitchsideCore", "PitchsideMedia",
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // BlazePose on LiteRT.
        .target(name: "PitchsidePose", dependencies: ["CLiteRt", "PitchsideCore", "PitchsideMedia"]),
        // The game: state machine, throw assembly, scoring, summary, durable event log.
        .target(
            name: "PitchsideGame",
            dependencies: [
                "PitchsideCore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "SwiftProtobuf", package: "swift-protobuf"),
            ]
        ),
        // Training data and models: pose tracks of synthetic games, labelled windows, training corpora.
        .target(
            name: "PitchsideTraining",
            dependencies: ["PitchsideCore", "PitchsideMedia", "PitchsidePose", "PitchsideSynth", "PitchsideGame", "PitchsideNodes"]
        ),
        // The processes: capture node, workers, supervisor (I/O around the analysers).
        .target(
            name: "PitchsideNodes",
            dependencies: [
                "PitchsideCore", "PitchsideTransport", "PitchsideMedia", "PitchsideVision", "PitchsidePose",
                "PitchsideGame", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "pitchside",
            dependencies: [
                "PitchsideCore", "PitchsideTransport", "PitchsideMedia", "PitchsideVision",
                "PitchsideSynth", "PitchsideNodes", "PitchsidePose", "PitchsideGame", "PitchsideTraining",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),

        .testTarget(name: "PitchsideCoreTests", dependencies: ["PitchsideCore"]),
        .testTarget(name: "PitchsideTransportTests", dependencies: ["PitchsideTransport", "PitchsideCore"]),
        .testTarget(name: "PitchsideMediaTests", dependencies: ["PitchsideMedia", "PitchsideCore"]),
        .testTarget(
            name: "PitchsideVisionTests", dependencies: ["PitchsideVision", "PitchsideCore", "PitchsideMedia", "PitchsideSynth"],
            exclude: ["Fixtures"]),  // read from the source tree by path
        .testTarget(name: "PitchsideGameTests", dependencies: ["PitchsideGame", "PitchsideCore", "PitchsideTransport"]),
        .testTarget(name: "PitchsidePoseTests", dependencies: ["PitchsidePose", "PitchsideCore", "PitchsideMedia", "PitchsideSynth"]),
        .testTarget(
            name: "PitchsideTrainingTests", dependencies: ["PitchsideTraining", "PitchsideGame", "PitchsideSynth", "PitchsideCore"],
            exclude: ["Fixtures"]),  // read from the source tree by path
        .testTarget(name: "PitchsideSynthTests", dependencies: ["PitchsideSynth", "PitchsideCore", "PitchsideMedia"]),
        .testTarget(
            name: "PitchsideEndToEndTests",
            dependencies: [
                "PitchsideCore", "PitchsideTransport", "PitchsideMedia", "PitchsideNodes", "PitchsideGame",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
    ],
    swiftLanguageModes: [.v5]
)
