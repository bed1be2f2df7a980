import PitchsideCore

/// Apple's game states with their explicit allowed transitions.
///
/// Inactive → SetupCamera → DetectingBoard → DetectedBoard → DetectingPlayer →
/// DetectedPlayer → TrackThrows ⇄ ThrowCompleted → ShowSummary → DetectingPlayer;
/// every state may return to Inactive. While detecting the board the setup
/// advances through sub-stages (detectingBoard → boardPlacement →
/// sceneStability → boardContours → setupComplete), reported as a
/// DetectingBoard → DetectingBoard change with the new stage.
///
/// ```swift
/// var sm = GameStateMachine()
/// let change = try sm.transition(to: .setupCamera, reason: "first results")
/// ```
public struct GameStateMachine: Sendable, Equatable {
    public private(set) var state: PSGameState = .inactive
    public private(set) var setupStage: PSSetupStage = .unspecified

    /// A transition that Apple's state machine does not allow.
    public struct ForbiddenTransition: Error, Equatable, CustomStringConvertible {
        public let from: PSGameState
        public let to: PSGameState
        public var description: String { "forbidden game state transition \(from) -> \(to)" }
    }

    public init(state: PSGameState = .inactive, setupStage: PSSetupStage = .unspecified) {
        self.state = state
        self.setupStage = setupStage
    }

    /// The states each state may move to (besides Inactive, always allowed).
    public static let allowed: [PSGameState: Set<PSGameState>] = [
        .inactive: [.setupCamera],
        .setupCamera: [.detectingBoard],
        .detectingBoard: [.detectingBoard, .detectedBoard],
        .detectedBoard: [.detectingPlayer],
        .detectingPlayer: [.detectedPlayer],
        .detectedPlayer: [.trackThrows],
        .trackThrows: [.throwCompleted, .showSummary],
        .throwCompleted: [.trackThrows, .showSummary],
        .showSummary: [.detectingPlayer],
    ]

    public static func isAllowed(from: PSGameState, to: PSGameState) -> Bool {
        if to == .inactive { return from != .inactive }
        return allowed[from]?.contains(to) ?? false
    }

    /// Moves to `to`, returning the change to publish; throws when not allowed.
    @discardableResult
    public mutating func transition(to: PSGameState, stage: PSSetupStage? = nil, reason: String) throws -> PSStateChanged {
        guard Self.isAllowed(from: state, to: to) else { throw ForbiddenTransition(from: state, to: to) }
        var change = PSStateChanged()
        change.from = state
        change.to = to
        change.reason = reason
        switch to {
        case .detectingBoard: setupStage = stage ?? .detectingBoard
        case .inactive, .setupCamera: setupStage = .unspecified
        default: if state == .detectingBoard { setupStage = .setupComplete }
        }
        change.setupStage = setupStage
        state = to
        return change
    }

    /// Takes the state from a logged change (restore); no validation, the log is the truth.
    public mutating func apply(_ change: PSStateChanged) {
        state = change.to
        setupStage = change.setupStage
    }
}
