import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideNodes

/// `pitchside scores`: subscribes to the score stream and prints it live.
struct ScoresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scores",
        abstract: "Follow the score stream live (joins late through a snapshot; fills gaps from history).",
        discussion: """
              pitchside scores                      every stream, human view
              pitchside scores --stream court-1 --json
              pitchside scores --history            replay the whole log first
            """
    )

    @OptionGroup var cluster: ClusterOptions

    @Flag(help: "One JSON object per event (protobuf JSON mapping of pitchside.v1.GameEvent); where a game stood on joining as {\"snapshot\": GameSnapshot}.")
    var json = false

    @Flag(help: "Print every logged event from the start before following live.")
    var history = false

    @Flag(help: "Follow every stream, not only --stream.")
    var allStreams = false

    func run() throws {
        let configuration = try cluster.resolve()
        let logger = Logs.logger("pitchside.scores", level: configuration.logLevel)
        let subscriber = ScoreSubscriber(endpoints: configuration.endpoints,
                                         stream: (allStreams || cluster.stream == nil) ? nil : configuration.stream, logger: logger)
        subscriber.replayHistory = history
        let stop = StopFlag.onSignals()
        let asJSON = json
        do {
            try subscriber.run(isCancelled: { stop.isRaised }, onSnapshot: { game in
                guard !asJSON else {
                    print("{\"snapshot\": \((try? game.jsonString()) ?? "{}")}")
                    fflush(stdout)
                    return
                }
                let scores = game.score.scores.map { "\($0.player) \($0.score)" }.joined(separator: ", ")
                print("[\(game.streamID)] joined at event \(game.lastEventSeq): game \(game.gameIndex), \(game.throws.count) throw(s)\(scores.isEmpty ? "" : ", score \(scores)")")
                fflush(stdout)
            }) { event in
                print(asJSON ? ScoreFormatter.json(event) : ScoreFormatter.line(event))
                fflush(stdout)
            }
        } catch {
            fail("\(error)")
        }
    }
}
