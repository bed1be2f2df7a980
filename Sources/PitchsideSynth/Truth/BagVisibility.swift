/// Whether the board hides a bag lying on the ground from the camera.
///
/// Rule: a ground bag is hidden when it lies behind the board (drawn before it, see
/// `RestingBag.liesBehindBoard`) and more than half of its area in the picture (its sides and
/// top as `BagPainter` draws them) falls inside the board's (legs, top, front face and near rail
/// as `BoardPainter` draws them). Bags on the board or in the hole are never hidden in this sense.
enum BagVisibility {
    /// Share of a bag's drawn area the board must cover for the bag to count as hidden.
    static let hiddenShare = 0.5
    /// Samples per side of the grid laid over a bag's outline.
    static let grid = 40

    static func isHidden(_ bag: RestingBag, board: BoardModel, cameraSign: Double, camera: PinholeCamera) -> Bool {
        bag.liesBehindBoard(board, cameraSign: cameraSign)
            && coveredShare(of: bag, board: board, cameraSign: cameraSign, camera: camera) > hiddenShare
    }

    /// Share of a ground bag's drawn area that the board's drawn faces cover, sampled on a grid
    /// over the bag's bounding box in the picture.
    static func coveredShare(of bag: RestingBag, board: BoardModel, cameraSign: Double, camera: PinholeCamera) -> Double {
        let bagFaces = BagPainter.groundFaces(bag).map { $0.map(camera.project) }
        let boardFaces = BoardFaces(board: board, sign: cameraSign).all.map { $0.map(camera.project) }
        let corners = bagFaces.flatMap { $0 }
        let xs = corners.map(\.x), ys = corners.map(\.y)
        guard let x0 = xs.min(), let x1 = xs.max(), let y0 = ys.min(), let y1 = ys.max() else { return 0 }
        var inBag = 0, covered = 0
        for i in 0..<grid {
            for j in 0..<grid {
                let p = Pixel(x0 + (x1 - x0) * (Double(i) + 0.5) / Double(grid),
                              y0 + (y1 - y0) * (Double(j) + 0.5) / Double(grid))
                guard bagFaces.contains(where: { contains($0, p) }) else { continue }
                inBag += 1
                if boardFaces.contains(where: { contains($0, p) }) { covered += 1 }
            }
        }
        return inBag > 0 ? Double(covered) / Double(inBag) : 0
    }

    /// Whether a point lies inside a polygon (even-odd rule, as a crossing count).
    static func contains(_ polygon: [Pixel], _ p: Pixel) -> Bool {
        var inside = false
        var j = polygon.count - 1
        for i in polygon.indices {
            let a = polygon[i], b = polygon[j]
            if (a.y > p.y) != (b.y > p.y), p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) { inside.toggle() }
            j = i
        }
        return inside
    }
}

extension RestingBag {
    /// On the ground past the board's front edge and not on the camera's side of its near rail:
    /// drawn before the board, which covers it where the two overlap in the picture.
    func liesBehindBoard(_ board: BoardModel, cameraSign sign: Double) -> Bool {
        let nearSide = BoardModel.width / 2 * sign
        return place == .onGround && position.x > board.frontX && position.z * sign < nearSide * sign
    }
}
