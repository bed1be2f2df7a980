import ArgumentParser
import Foundation
import PitchsideSynth

/// `pitchside synth corpus`: many games over every variation, with an index.
struct SynthCorpusCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "corpus", abstract: "Render a corpus of games spread over every variation, with index.json.")

    @Option(help: "Corpus name (directory ROOT/NAME, games NAME-0000 …).") var name: String
    @Option(help: "Number of games.") var count: Int
    @Option(help: "Directory holding corpora.") var root = "synth-corpus"
    @Option(help: "Seed of the first game (the others follow).") var seed: UInt64 = 1000
    @Option(name: .customLong("throws"), help: "Throws per game (default: 8).") var throwCount: Int?
    @Option(help: "Largest picture width (smaller sizes replace larger ones).") var maxWidth: Int?
    @Option(help: "Every player's bag colour R,G,B in every game (default: chosen per game to stand out from the ground in brightness).")
    var bagColour: String?
    @Option(help: "Ground colour R,G,B in every game.") var groundColour: String?
    @Option(help: ArgumentHelp("Render only this game of the corpus (NAME-0007); repeatable. index.json still lists every game.",
                               valueName: "game"))
    var only: [String] = []

    struct Entry: Codable {
        var name: String
        var directory: String
        var seed: UInt64
        var width: Int
        var height: Int
        var fps: Int
        var side: String
        var players: Int
        var rules: String
        var frames: Int
        var throwCount: Int
        var styles: [String: Int]
        var outcomes: [String: Int]
        var settleSeconds: Double
        var nuisances: NuisanceSettings
    }

    func run() throws {
        let plan = CorpusPlan(name: name, count: count, baseSeed: seed, throwCount: throwCount, maxWidth: maxWidth)
        let dir = root + "/" + name
        var entries: [Entry] = []
        let unknown = Set(only).subtracting(plan.items.map(\.name))
        guard unknown.isEmpty else {
            throw ValidationError("--only \(unknown.sorted().joined(separator: ", ")): not a game of this corpus "
                                  + "(\(plan.items.first?.name ?? "") … \(plan.items.last?.name ?? ""))")
        }
        for var item in plan.items {
            try SynthColours.apply(bag: bagColour, ground: groundColour, to: &item.settings)
            let game = SynthGame(settings: item.settings)
            let render = only.isEmpty || only.contains(item.name)
            let timing = render ? try GameWriter(directory: dir + "/" + item.name).write(game) : nil
            let truth = game.truth()
            var styles: [String: Int] = [:], outcomes: [String: Int] = [:]
            for t in truth.throwsTruth {
                styles[t.style.rawValue, default: 0] += 1
                outcomes[t.outcome.rawValue, default: 0] += 1
            }
            let s = item.settings
            entries.append(Entry(
                name: item.name, directory: item.name, seed: s.seed, width: s.width, height: s.height, fps: s.fps,
                side: s.side.rawValue, players: s.players.count, rules: s.rules.rawValue, frames: game.frameCount,
                throwCount: truth.throwsTruth.count, styles: styles, outcomes: outcomes,
                settleSeconds: s.camera.settleSeconds, nuisances: s.nuisances))
            guard let timing else { continue }
            print(String(format: "%@: %dx%d@%d %@ %d player(s), %d throws, %.1f s", item.name, s.width, s.height, s.fps,
                         s.side.rawValue, s.players.count, truth.throwsTruth.count, timing.totalSeconds))
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted]
        try encoder.encode(entries).write(to: URL(fileURLWithPath: dir + "/index.json"))
        print("index: \(dir)/index.json (\(entries.count) games)")
    }
}
