import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideGame
import PitchsideNodes

/// `pitchside replay RESULTS`: the games played again over the worker results an aggregator kept.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Play the games again over worker results kept by --keep-results and print every event.",
        discussion: """
            No workers, video or sockets: the game is deterministic, so the same results give the
            run's events again, and a change to how the game judges throws is tried in seconds.
            Give the rules and players the run had.
              pitchside analyze game.mp4 --json --keep-results game.results > events.jsonl
              pitchside replay game.results --json > replayed.jsonl
            """
    )

    @Argument(help: ArgumentHelp("Results file written by aggregate or analyze --keep-results.", valueName: "file"))
    var results: String

    @Flag(help: "Print events as JSON lines (protobuf JSON of pitchside.v1.GameEvent).")
    var json = false

    @OptionGroup var game: GameOptions

    func run() throws {
        let kept: [PSWorkerResult]
        do {
            kept = try KeptResults.read(path: results)
        } catch let error as KeptResults.ReadError {
            fail("\(error)")
        } catch {
            fail("cannot read \(results): \(error.localizedDescription)")
        }
        let configuration = try game.configuration()
        let events = GameReplay.events(kept, configuration: { _ in configuration }, classifier: try game.classifier())
        for event in events { print(json ? ScoreFormatter.json(event) : ScoreFormatter.line(event)) }
    }
}
