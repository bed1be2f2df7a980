import PitchsideCore

/// What the throw assembler needs to know about the scene: the board and where
/// the thrower stands. The thrower may be on either side of the board.
public struct ThrowContext: Sendable {
    public var board: BoardGeometry
    /// The thrower's box (normalized), from the latest present pose, if any.
    public var playerBox: (minX: Double, minY: Double, maxX: Double, maxY: Double)?

    public init(board: BoardGeometry, playerBox: PSRect? = nil) {
        self.board = board
        if let r = playerBox, r.width > 0, r.height > 0 {
            self.playerBox = (r.x, r.y, r.x + r.width, r.y + r.height)
        }
    }

    /// +1 when the bag must travel right (thrower left of the board), −1 otherwise.
    public var direction: Double {
        if let p = playerBox { return (p.minX + p.maxX) / 2 < board.centerX ? 1 : -1 }
        return board.centerX > 0.5 ? 1 : -1
    }

    /// Whether `p` lies in the throw region: beside the player, toward the board
    /// (Apple: player.maxX + 50, width 400, for a thrower on the left).
    public func inThrowRegion(_ p: Vec2) -> Bool {
        let d = direction
        let nearBoard = d > 0 ? board.minX : board.maxX
        if let box = playerBox {
            let edge = d > 0 ? box.maxX : box.minX
            let back = d > 0 ? box.minX : box.maxX
            let reach = max(GameConstants.throwRegionGap + GameConstants.throwRegionWidth, abs(nearBoard - edge) / 2)
            let lo = min(back, edge + d * reach), hi = max(back, edge + d * reach)
            return p.x >= lo && p.x <= hi && p.y <= box.maxY + 0.05
        }
        // Without a pose: anywhere on the thrower's side, well short of the board.
        return d > 0 ? p.x < nearBoard - 0.15 : p.x > nearBoard + 0.15
    }

    /// Whether `p` lies in the corridor from the thrower to beyond the board:
    /// the region of interest a throw's points must stay inside.
    public func inCorridor(_ p: Vec2) -> Bool {
        let m = GameConstants.targetMargin
        let d = direction
        let farBoard = d > 0 ? board.maxX + m : board.minX - m
        let back: Double
        if let box = playerBox { back = d > 0 ? box.minX - m : box.maxX + m } else { back = d > 0 ? 0 : 1 }
        return p.x >= min(back, farBoard) && p.x <= max(back, farBoard) && p.y <= board.maxY + 0.25
    }

    /// Whether `p` has not yet reached the target region's near edge, seen from the thrower.
    public func isShortOfTargetRegion(_ p: Vec2) -> Bool {
        let nearEdge = direction > 0 ? board.minX - GameConstants.targetMargin : board.maxX + GameConstants.targetMargin
        return (nearEdge - p.x) * direction > 0
    }

    /// Whether `p` lies in the target region around the board.
    public func inTargetRegion(_ p: Vec2) -> Bool {
        let m = GameConstants.targetMargin
        return p.x >= board.minX - m && p.x <= board.maxX + m
            && p.y >= board.minY - m - GameConstants.regionExtendUp && p.y <= board.maxY + m
    }
}
