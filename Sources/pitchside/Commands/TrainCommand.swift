import ArgumentParser
import Foundation
import PitchsideCore
import PitchsideGame
import PitchsideTraining

/// `pitchside train`: learned models.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train", abstract: "Train the learned models on synthetic games.",
        subcommands: [TrainClassifierCommand.self])
}

/// `pitchside train classifier`: the throw-type model, from the pose worker's output on synthetic games.
struct TrainClassifierCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "classifier",
        abstract: "Train the throw-type classifier on the pose worker's output of synthetic games.",
        discussion: """
            Renders the training games (seeds 3000–3999) and validation games (4000–4099) into the corpus \
            directory (which must exist) when they are missing, runs the pose estimator over every frame as the \
            pose worker does (cached as poses.jsonl next to each game), cuts labelled 45-frame windows around \
            each release and from negative actions and idle stretches, trains, and prints the held-out accuracy \
            with a confusion matrix. Writes the model as Swift source (the game's compiled-in default) and, with \
            --out, as JSON for `--throw-classifier FILE`.

            Examples:
              pitchside train classifier --corpus /data/throw-corpus
              pitchside train classifier --corpus c --games 4 --validation-games 2 --source none --out m.json
              pitchside train classifier --corpus c --evaluate trained      # figures of the compiled-in model
            """)

    @Option(help: "Directory of the training and validation games (must exist; games missing in it are rendered).")
    var corpus: String
    @Option(help: "First training seed (3000–3999).") var seed: UInt64 = 3000
    @Option(help: "Training games.") var games = 24
    @Option(help: "First validation seed (4000–4099).") var validationSeed: UInt64 = 4000
    @Option(help: "Validation games (held out: never trained on).") var validationGames = 6
    @Option(name: .customLong("throws"), help: "Throws per rendered game.") var throwCount = 8
    @Option(help: "Games prepared at once (rendering and pose estimation, one thread each).") var jobs = 1
    @Option(help: "Hidden units of the model (0: softmax regression).") var hidden = 16
    @Option(help: "Training epochs.") var epochs = 300
    @Option(help: "L2 weight penalty.") var l2 = 1e-3
    @Option(help: "Learning rate (Adam).") var learningRate = 0.003
    @Option(help: ArgumentHelp("Frames after the true release at which throw windows are cut, comma-separated.",
                               valueName: "list"))
    var releaseDelays = "0,1,2,3,4,5"
    @Option(help: ArgumentHelp("Swift source to write the model to (\"none\": do not).", valueName: "file"))
    var source = TrainedModelSource.defaultPath
    @Option(help: "Also write the model as JSON (for --throw-classifier FILE).") var out: String?
    @Option(help: ArgumentHelp("Write a few validation windows the new model gets right, as test data (\"none\": do not).",
                               valueName: "file"))
    var fixture = "Tests/PitchsideTrainingTests/Fixtures/throw-windows.json"
    @Flag(help: "List the validation windows the model gets wrong.") var showErrors = false
    @Option(help: ArgumentHelp("Also write every window's features and label as JSON lines (for analysis).", valueName: "file"))
    var dumpFeatures: String?
    @Option(help: ArgumentHelp("Only evaluate a model on the validation games: trained (compiled-in), rules, or a JSON file.",
                               valueName: "model"))
    var evaluate: String?

    func validate() throws {
        guard games >= 1, validationGames >= 1 else { throw ValidationError("--games and --validation-games must be at least 1") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        guard hidden >= 0, epochs >= 1 else { throw ValidationError("--hidden must be ≥ 0 and --epochs ≥ 1") }
        guard TrainingCorpus.trainingSeeds.contains(seed), TrainingCorpus.trainingSeeds.contains(seed + UInt64(games) - 1) else {
            throw ValidationError("training seeds must lie in 3000–3999")
        }
        guard TrainingCorpus.validationSeeds.contains(validationSeed),
              TrainingCorpus.validationSeeds.contains(validationSeed + UInt64(validationGames) - 1) else {
            throw ValidationError("validation seeds must lie in 4000–4099")
        }
        guard parsedDelays != nil else { throw ValidationError("--release-delays must be frame counts ≥ 0, e.g. 0,2,4") }
    }

    var parsedDelays: [Int]? {
        let parts = releaseDelays.split(separator: ",").map { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !parts.isEmpty, parts.allSatisfy({ ($0 ?? -1) >= 0 }) else { return nil }
        return parts.compactMap { $0 }
    }

    func run() throws {
        // A mistyped path must not start hours of rendering into a new directory.
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: corpus, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw TrainingError.badCorpus("corpus directory \(corpus) does not exist: create it (mkdir -p) to render the "
                + "games into it, or give the directory of a prepared corpus")
        }
        let started = Date()
        let lock = NSLock()
        let log: @Sendable (String) -> Void = { line in
            lock.lock()
            print(String(format: "[%5.0f s] ", Date().timeIntervalSince(started)) + line)
            fflush(stdout)
            lock.unlock()
        }
        let preparer = CorpusPreparer(directory: URL(fileURLWithPath: corpus), jobs: jobs)
        var labeller = ThrowTypeExamples()
        labeller.releaseDelays = parsedDelays ?? [0]

        let validation = try TrainingCorpus(firstSeed: validationSeed, count: validationGames, throwsPerGame: throwCount)
        if let evaluate {
            let classifier = try Self.classifier(evaluate)
            let prepared = try preparer.prepare(validation.games, log: log)
            log("cutting labelled windows")
            let heldExamples = examples(prepared, labeller)
            report("validation (seeds \(validationSeed)–\(validationSeed + UInt64(validationGames) - 1))", classifier,
                   heldExamples.map(\.sample))
            if showErrors { Self.listErrors(heldExamples, classifier) }
            return
        }
        let training = try TrainingCorpus(firstSeed: seed, count: games, throwsPerGame: throwCount)
        let all = try preparer.prepare(training.games + validation.games, log: log)
        log("cutting labelled windows")
        let trainExamples = examples(Array(all.prefix(games)), labeller)
        let train = trainExamples.map(\.sample)
        let heldExamples = examples(Array(all.suffix(validationGames)), labeller)
        let held = heldExamples.map(\.sample)
        if let dumpFeatures { try Self.dump(trainExamples, heldExamples, to: dumpFeatures) }
        log("\(train.count) training windows (\(Self.counts(train))), \(held.count) validation windows (\(Self.counts(held)))")

        let options = ThrowTypeTrainer.Options(hiddenUnits: hidden, epochs: epochs, learningRate: learningRate, l2: l2)
        var model = try ThrowTypeTrainer.train(samples: train, options: options) { epoch, loss in
            log(String(format: "epoch %d/%d: loss %.4f", epoch, epochs, loss))
        }
        let trainFigures = ThrowTypeTrainer.evaluate(LearnedThrowTypeClassifier(model: model), on: train)
        let heldFigures = report("validation (held out, seeds \(validationSeed)–\(validationSeed + UInt64(validationGames) - 1))",
                                 LearnedThrowTypeClassifier(model: model), held)
        print(String(format: "training accuracy %.1f%%", trainFigures.accuracy * 100))
        if showErrors { Self.listErrors(heldExamples, LearnedThrowTypeClassifier(model: model)) }
        let command = "pitchside train classifier --seed \(seed) --games \(games) --validation-seed \(validationSeed) "
            + "--validation-games \(validationGames) --throws \(throwCount) --hidden \(hidden) --epochs \(epochs) "
            + "--l2 \(l2) --learning-rate \(learningRate) --release-delays \(releaseDelays)"
        model.notes = [
            "status": "trained",
            "command": command,
            "training": "\(train.count) windows from seeds \(seed)–\(seed + UInt64(games) - 1): \(Self.counts(train))",
            "validation": String(format: "%.1f%% of %d windows from seeds %llu–%llu", heldFigures.accuracy * 100, held.count,
                                 validationSeed, validationSeed + UInt64(validationGames) - 1),
        ]
        if let out {
            try model.save(URL(fileURLWithPath: out))
            log("model written to \(out)")
        }
        if fixture != "none" {
            let packed = try Self.fixture(heldExamples, model: model)
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try FileManager.default.createDirectory(atPath: (fixture as NSString).deletingLastPathComponent,
                                                    withIntermediateDirectories: true)
            try encoder.encode(packed).write(to: URL(fileURLWithPath: fixture))
            log("\(packed.windows.count) validation windows written to \(fixture)")
        }
        if source != "none" {
            try TrainedModelSource.render(model, command: command).write(toFile: source, atomically: true, encoding: .utf8)
            log("model written to \(source) (rebuild to make it the game's default)")
        }
    }

    func examples(_ prepared: [CorpusPreparer.PreparedGame], _ labeller: ThrowTypeExamples) -> [ThrowTypeExamples.Example] {
        prepared.flatMap { labeller.examples(track: $0.track, truth: $0.truth) }
    }

    /// Two validation windows of each class that `model` classifies right, packed as test data.
    static func fixture(_ examples: [ThrowTypeExamples.Example], model: ThrowTypeModel) throws -> WindowFixture {
        let classifier = LearnedThrowTypeClassifier(model: model)
        var windows: [WindowFixture.Window] = []
        for type in throwTypeClasses {
            var taken = 0
            for e in examples where e.sample.label == type && taken < 2 {
                let packed = WindowFixture.pack(label: type, seed: e.seed, frame: e.frame, sample: e.sample)
                let d = classifier.classify(try WindowFixture.unpack(packed).sample.poses, releasePtsUs: packed.releasePtsUs)
                guard d.type == type, d.confidence >= 0.8 else { continue }
                windows.append(packed)
                taken += 1
            }
        }
        return WindowFixture(note: "Pose worker output on validation games, windows placed by PoseWindow.around; "
            + "written by `pitchside train classifier` with the compiled-in model", windows: windows)
    }

    @discardableResult
    func report(_ title: String, _ classifier: any ThrowTypeClassifier, _ samples: [ThrowTypeTrainer.Sample])
        -> (accuracy: Double, confusion: [[Int]]) {
        let figures = ThrowTypeTrainer.evaluate(classifier, on: samples)
        let throwsOnly = samples.filter { $0.label != .none }
        let throwFigures = ThrowTypeTrainer.evaluate(classifier, on: throwsOnly)
        print("\(title): \(samples.count) windows")
        print(String(format: "accuracy %.1f%% (throw windows only: %.1f%% of %d)", figures.accuracy * 100,
                     throwFigures.accuracy * 100, throwsOnly.count))
        print(ThrowTypeTrainer.describe(confusion: figures.confusion))
        return figures
    }

    static func classifier(_ name: String) throws -> any ThrowTypeClassifier {
        switch name {
        case "trained": return LearnedThrowTypeClassifier()
        case "rules": return RuleThrowTypeClassifier()
        default:
            do {
                return LearnedThrowTypeClassifier(model: try ThrowTypeModel.load(URL(fileURLWithPath: name)))
            } catch {
                throw TrainingError.badModel(name, "\(error)")
            }
        }
    }

    static func listErrors(_ examples: [ThrowTypeExamples.Example], _ classifier: any ThrowTypeClassifier) {
        for e in examples {
            let d = classifier.classify(e.sample.poses, releasePtsUs: e.sample.releasePtsUs)
            guard d.type != e.sample.label else { continue }
            print(String(format: "  wrong: seed %llu frame %d (%@%@, %d poses): %@ taken for %@ (%.2f)", e.seed, e.frame, e.action,
                         e.delay.map { ", release +\($0)" } ?? "", e.sample.poses.count,
                         ThrowTypeModel.name(of: e.sample.label), ThrowTypeModel.name(of: d.type), d.confidence))
        }
    }

    static func dump(_ train: [ThrowTypeExamples.Example], _ held: [ThrowTypeExamples.Example], to path: String) throws {
        var lines: [String] = []
        for (set, examples) in [("train", train), ("validation", held)] {
            for e in examples {
                guard let x = WindowFeatures.extract(e.sample.poses, releasePtsUs: e.sample.releasePtsUs) else { continue }
                let record: [String: Any] = [
                    "set": set, "seed": e.seed, "frame": e.frame, "action": e.action, "delay": e.delay ?? -1,
                    "label": ThrowTypeModel.name(of: e.sample.label), "x": x,
                ]
                lines.append(String(decoding: try JSONSerialization.data(withJSONObject: record), as: UTF8.self))
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
    }

    static func counts(_ samples: [ThrowTypeTrainer.Sample]) -> String {
        throwTypeClasses.map { type in
            "\(ThrowTypeModel.name(of: type)) \(samples.filter { $0.label == type }.count)"
        }.joined(separator: ", ")
    }
}
