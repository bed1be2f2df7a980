import Foundation
import PitchsideCore
@testable import PitchsideVision

/// Drawn test scenes: a board top as a perspective quadrilateral with a hole, over textured
/// ground with noise, and bags as coloured patches.
struct BoardScene {
    var width = 640
    var height = 360
    /// Top surface corners clockwise from the top-left.
    var corners: [PlanePoint]
    /// Board coordinates: which corner starts the back edge (3: left end, 1: right end when the
    /// length runs along corners 0 → 1).
    var backEdgeStart = 1
    var lengthAlongFirstEdge = true
    var boardColour: (Double, Double, Double) = (190, 60, 40)
    var groundColour: (Double, Double, Double) = (80, 120, 60)
    var holeColour: (Double, Double, Double) = (20, 20, 20)
    var noise = 4.0
    var drawHole = true
    /// Brightness of the top near its back end (`shadeFromBack`), relative to the rest (1: the
    /// same paint throughout).
    var backStripShade = 1.0
    /// How far from the back end (metres) the top lies in that shade: by default the strip
    /// between the back end and the hole's centre.
    var shadeFromBack = BoardGeometry.holeFromBack
    var drawBoard = true
    /// Bags: (along from back, across) in metres on the board plane, colour; or ground positions in pixels.
    var boardBags: [(Double, Double, (Double, Double, Double))] = []
    var groundBags: [(PlanePoint, Double, (Double, Double, Double))] = []

    var plane: BoardPlane { BoardPlane(corners: corners, lengthAlongFirstEdge: lengthAlongFirstEdge, backEdgeStart: backEdgeStart)! }
    var holeCentre: PlanePoint { plane.point(along: BoardGeometry.holeFromBack, across: 0) }
    var lengthPixels: Double { plane.centreLineLength }
    /// One bag's side on the board, pixels.
    var bagSidePixels: Double { BoardGeometry.bagSide / BoardGeometry.length * lengthPixels }

    func render(seed: UInt64) -> ImageBuffer {
        var rng = TestRandom(seed: seed)
        var image = ImageBuffer(width: width, height: height, layout: .rgb24)
        let toUnit = Homography(unitSquareTo: corners)!.inverted()!
        // Ground texture: blotches of two tones.
        var blotches: [(Double, Double, Double, Double)] = []
        for _ in 0..<60 {
            blotches.append((rng.uniform(0, Double(width)), rng.uniform(0, Double(height)), rng.uniform(4, 30), rng.uniform(-25, 25)))
        }
        let bagSide = bagSidePixels
        for y in 0..<height {
            for x in 0..<width {
                let p = PlanePoint(Double(x) + 0.5, Double(y) + 0.5)
                var c = groundColour
                var shade = 0.0
                for b in blotches where abs(p.x - b.0) < b.2 && abs(p.y - b.1) < b.2 { shade += b.3 }
                shade += 10 * sin(p.x * 0.21) * sin(p.y * 0.17)
                c = (c.0 + shade, c.1 + shade, c.2 + shade)
                let u = toUnit.apply(p)
                if drawBoard, u.x >= 0, u.x <= 1, u.y >= 0, u.y <= 1 {
                    c = boardColour
                    let along = lengthAlongFirstEdge ? (backEdgeStart == 3 ? u.x : 1 - u.x) : (backEdgeStart == 0 ? u.y : 1 - u.y)
                    if along * BoardGeometry.length < shadeFromBack {
                        c = (c.0 * backStripShade, c.1 * backStripShade, c.2 * backStripShade)
                    }
                    if drawHole {
                        let across = (lengthAlongFirstEdge ? u.y : u.x) - 0.5
                        let da = along * BoardGeometry.length - BoardGeometry.holeFromBack, dc = across * BoardGeometry.width
                        if da * da + dc * dc < BoardGeometry.holeRadius * BoardGeometry.holeRadius { c = holeColour }
                    }
                }
                for bag in boardBags {
                    let q = plane.point(along: bag.0, across: bag.1)
                    let half = bagSide / 2
                    let tall = lengthAlongFirstEdge ? 0.45 * bagSide : half
                    if abs(p.x - q.x) < half, p.y <= q.y + 0.15 * bagSide, p.y >= q.y - tall { c = bag.2 }
                }
                for bag in groundBags where abs(p.x - bag.0.x) < bag.1 / 2 && abs(p.y - bag.0.y) < bag.1 / 3 { c = bag.2 }
                let i = (y * width + x) * 3
                image.pixels[i] = UInt8(max(0, min(255, c.0 + noise * rng.gaussian())))
                image.pixels[i + 1] = UInt8(max(0, min(255, c.1 + noise * rng.gaussian())))
                image.pixels[i + 2] = UInt8(max(0, min(255, c.2 + noise * rng.gaussian())))
            }
        }
        return image
    }

    /// A side view: thin quadrilateral, length along the first edge.
    static func sideView(seed: UInt64) -> BoardScene {
        var rng = TestRandom(seed: seed)
        let length = rng.uniform(170, 240), depth = rng.uniform(18, 30)
        let x0 = rng.uniform(300, 620 - length), y0 = rng.uniform(150, 260)
        let tilt = rng.uniform(-6, 6), lean = rng.uniform(-8, 8)
        let corners = [PlanePoint(x0 + lean, y0), PlanePoint(x0 + length + lean, y0 + tilt),
                       PlanePoint(x0 + length * 1.03, y0 + tilt + depth), PlanePoint(x0 - length * 0.03, y0 + depth)]
        var scene = BoardScene(corners: corners)
        scene.backEdgeStart = rng.uniform() < 0.5 ? 1 : 3
        let palettes: [(Double, Double, Double)] = [(190, 60, 40), (30, 60, 170), (230, 230, 220), (40, 40, 45), (200, 170, 60)]
        scene.boardColour = palettes[Int(seed % UInt64(palettes.count))]
        scene.groundColour = seed % 2 == 0 ? (80, 120, 60) : (150, 140, 120)
        scene.holeColour = scene.boardColour.0 < 60 ? (120, 110, 90) : (20, 20, 20)
        return scene
    }
}
