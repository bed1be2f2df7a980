import PitchsideCore

/// What the throw assembler needs to know about the scene: the board, where
/// the thrower stands, and where this game's earlier throws left the hand. The
/// thrower may be on either side of the board.
public struct ThrowContext: Sendable {
    public var board: BoardGeometry
    /// The thrower's box (normalized), from the latest present pose, if any.
    public var playerBox: (minX: Double, minY: Double, maxX: Double, maxY: Double)?
    /// Where earlier throws of this game were first seen (normalized). Players throw from the
    /// same spot all game, and the pose worker can lose the thrower while someone else is in
    /// view: in dev6-0007 it saw only a walker between the thrower and the board at throw 3, the
    /// throw region stood around the walker, and the throw was lost.
    public var releaseSpots: [Vec2]

    public init(board: BoardGeometry, playerBox: PSRect? = nil, releaseSpots: [Vec2] = []) {
        self.board = board
        if let r = playerBox, r.width > 0, r.height > 0 {
            self.playerBox = (r.x, r.y, r.x + r.width, r.y + r.height)
        }
        self.releaseSpots = releaseSpots
    }

    /// How near an earlier throw's first point a path must start to start from the same spot
    /// (normalized x and y): a player's releases lie within about 0.03 of each other.
    public static let releaseSpotReach = (x: 0.05, y: 0.08)

    /// Whether `p` lies where an earlier throw of this game started.
    public func isAtReleaseSpot(_ p: Vec2) -> Bool {
        releaseSpots.contains { abs($0.x - p.x) <= Self.releaseSpotReach.x && abs($0.y - p.y) <= Self.releaseSpotReach.y }
    }

    /// +1 when the bag must travel right (thrower left of the board), −1 otherwise.
    public var direction: Double {
        if let p = playerBox { return (p.minX + p.maxX) / 2 < board.centerX ? 1 : -1 }
        return board.centerX > 0.5 ? 1 : -1
    }

    /// Whether `p` lies in the throw region: beside the player, toward the board
    /// (Apple: player.maxX + 50, width 400, for a thrower on the left).
    public func inThrowRegion(_ p: Vec2) -> Bool {
        if isAtReleaseSpot(p) { return true }
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
        let back = corridorBack, far = corridorFar
        return p.x >= min(back, far) && p.x <= max(back, far) && p.y <= corridorBottom
    }

    /// The corridor's end beyond the board, seen from the thrower.
    public var corridorFar: Double {
        let m = GameConstants.targetMargin
        return direction > 0 ? board.maxX + m : board.minX - m
    }

    /// The corridor's lowest point (normalized y grows downward): a little below the board.
    public var corridorBottom: Double { board.maxY + 0.25 }

    /// The corridor's end behind the thrower: the player's back (or the picture's edge without
    /// one), and no nearer than the earlier throws' release spots.
    public var corridorBack: Double {
        let m = GameConstants.targetMargin
        let d = direction
        guard let box = playerBox else { return d > 0 ? 0 : 1 }
        let behind = releaseSpots.map { $0.x - d * (Self.releaseSpotReach.x + m) }
        return d > 0 ? min(box.minX - m, behind.min() ?? 1) : max(box.maxX + m, behind.max() ?? 0)
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
