import Foundation
@testable import PitchsideSynth

/// Small, quick games for tests: 640×360, one or two throws.
enum SynthFixtures {
    static func small(seed: UInt64, throwCount: Int = 1, clean: Bool = true, styles: [ThrowStyle] = [.underhand])
        -> SynthSettings {
        var s = SynthSettings.random(seed: seed)
        s.width = 640
        s.height = 360
        s.fps = 30
        s.setPlayerCount(1)
        s.throwCount = throwCount
        s.styles = styles
        s.negativeActionRate = 0
        s.camera.settleSeconds = 0
        if clean { s.nuisances = .none() }
        return s
    }

    static func temporaryDirectory() throws -> String {
        let dir = NSTemporaryDirectory() + "pitchside-synth-tests-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }
}
