import PitchsideCore

/// Drives the setup sub-stages from board and stability observations:
/// board found (confidence ≥ 0.6) → it stays found for a few observations
/// (placement) → the scene is stable (≥ 16 registration samples) → contours
/// and hole measured → setup complete. An unstable scene goes back to placement.
public struct SetupProgress: Sendable, Equatable {
    public private(set) var stage: PSSetupStage = .detectingBoard
    private var consecutiveBoards = 0
    private var measuredBoard = false

    public init(stage: PSSetupStage = .detectingBoard) { self.stage = stage }

    /// The next stage after a board observation, if it changed.
    public mutating func observe(board o: PSBoardObservation) -> PSSetupStage? {
        let found = o.found && o.confidence >= GameConstants.boardConfidence
        consecutiveBoards = found ? consecutiveBoards + 1 : 0
        measuredBoard = found && (BoardGeometry(o)?.isMeasured ?? false)
        switch stage {
        case .detectingBoard, .unspecified:
            return found ? move(.boardPlacement) : nil
        case .boardPlacement:
            if !found { return move(.detectingBoard) }
            return consecutiveBoards >= GameConstants.boardPlacementObservations ? move(.sceneStability) : nil
        case .boardContours:
            return measuredBoard ? move(.setupComplete) : nil
        default:
            return nil
        }
    }

    /// The next stage after a stability observation, if it changed.
    public mutating func observe(stability o: PSStabilityObservation) -> PSSetupStage? {
        switch stage {
        case .sceneStability:
            guard o.stable else { return nil }
            guard o.sampleCount >= GameConstants.stabilitySamples else { return nil }
            return move(measuredBoard ? .setupComplete : .boardContours)
        case .boardContours:
            return o.stable ? nil : move(.boardPlacement)
        default:
            return nil
        }
    }

    private mutating func move(_ s: PSSetupStage) -> PSSetupStage? {
        guard s != stage else { return nil }
        stage = s
        if s == .detectingBoard || s == .boardPlacement { consecutiveBoards = min(consecutiveBoards, 1) }
        return s
    }
}
