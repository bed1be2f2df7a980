import Foundation
import PitchsideCore

/// Finds the bags in one picture around a known board and says where each lies.
///
/// A bag is a compact blob whose colour is far from the board top's and from every colour of
/// the ground around the board (chroma counts more than brightness, so shadows and trim do
/// not). Blobs are kept when their size fits a 6 in bag at the board's scale. A blob mostly
/// inside the hole is in the hole (an overhead view sees it there; a side view never does);
/// one whose centre lies on the top surface is on the board; the rest are on the ground.
public struct BagFinder: Sendable {
    /// Colour distance (chroma units) a bag must keep from board and ground.
    public var colourThreshold = 45.0
    /// How far around the board to look, in board lengths.
    public var reach = 0.6
    public var workingSize = 640

    public init() {}

    public func find(in image: ImageBuffer, board fullBoard: BoardDetection) -> [BagSighting] {
        let work = WorkImage(image, maxSide: workingSize)
        let board = fullBoard.scaled(toWidth: work.width, height: work.height)
        let k = Double(image.width) / Double(work.width)
        let quad = board.corners
        let length = board.lengthPixels
        let bag = BoardGeometry.bagSide / BoardGeometry.length * length
        let box = board.boundingBox
        let overhead = box.height > 0.35 * box.width && box.width > 0.35 * box.height
        let x0 = max(0, Int(box.x - reach * length)), x1 = min(work.width - 1, Int(box.x + box.width + reach * length))
        let y0 = max(0, Int(box.y - reach * length)), y1 = min(work.height - 1, Int(box.y + box.height + reach * length))
        guard x1 > x0, y1 > y0 else { return [] }
        let hole = board.hole
        func inHole(_ x: Double, _ y: Double, grow: Double) -> Bool {
            let a = hole.angleDegrees * Double.pi / 180
            let dx = x - hole.center.x, dy = y - hole.center.y
            let u = dx * cos(a) + dy * sin(a), v = -dx * sin(a) + dy * cos(a)
            let ma = max(1e-6, hole.semiMajor * grow), mi = max(1e-6, hole.semiMinor * grow)
            return (u * u) / (ma * ma) + (v * v) / (mi * mi) <= 1
        }

        // Board colour: the median feature over the top surface away from the hole.
        var boardSamples: [ColourFeature] = []
        var groundSamples: [ColourFeature] = []
        let step = max(1, Int(min(Double(x1 - x0), Double(y1 - y0)) / 120))
        for y in stride(from: y0, through: y1, by: step) {
            for x in stride(from: x0, through: x1, by: step) {
                let px = Double(x) + 0.5, py = Double(y) + 0.5
                let p = work.pixel(x, y)
                let d = polygonSignedDistance(quad, PlanePoint(px, py))
                if d < -0.02 * length, !inHole(px, py, grow: 1.3) {
                    boardSamples.append(ColourFeature(p.0, p.1, p.2))
                } else if d > 0.03 * length {
                    groundSamples.append(ColourFeature(p.0, p.1, p.2))
                }
            }
        }
        guard !boardSamples.isEmpty else { return [] }
        let boardColour = ColourFeature(rg: median(boardSamples.map(\.rg)), yb: median(boardSamples.map(\.yb)),
                                        luma: median(boardSamples.map(\.luma)))
        let ground = ColourClusters(samples: groundSamples, k: 4, minimumShare: 0.08)

        // Foreground mask over the region around the board.
        let w = x1 - x0 + 1, h = y1 - y0 + 1
        var fg = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            for x in 0..<w {
                let p = work.pixel(x0 + x, y0 + y)
                let f = ColourFeature(p.0, p.1, p.2)
                guard f.distance(to: boardColour) > colourThreshold, ground.distance(to: f) > colourThreshold else { continue }
                if !overhead, inHole(Double(x0 + x) + 0.5, Double(y0 + y) + 0.5, grow: 1.1) { continue }
                fg[y * w + x] = 1
            }
        }
        let blobs = Blobs.label(fg, width: w, height: h)
        let minArea = max(6.0, (overhead ? 0.12 : 0.05) * bag * bag)
        let maxArea = 3.5 * bag * bag
        var found: [BagSighting] = []
        for blob in blobs where Double(blob.count) >= minArea && Double(blob.count) <= maxArea {
            var sx = 0.0, sy = 0.0, sr = 0, sg = 0, sb = 0, holeCount = 0
            for i in blob {
                let x = x0 + i % w, y = y0 + i / w
                let cx = Double(x) + 0.5, cy = Double(y) + 0.5
                sx += cx; sy += cy
                let p = work.pixel(x, y)
                sr += p.0; sg += p.1; sb += p.2
                if inHole(cx, cy, grow: 1.15) { holeCount += 1 }
            }
            let n = Double(blob.count)
            let c = PlanePoint(sx / n, sy / n)
            let place: BagPlacement
            if overhead, Double(holeCount) / n >= 0.7 {
                place = .inHole
            } else if onTop(c, quad: quad, overhead: overhead, bag: bag) {
                place = .onBoard
            } else {
                place = .onGround
            }
            found.append(BagSighting(center: PlanePoint(c.x * k, c.y * k),
                                     colour: RGBColour(r: UInt8(sr / blob.count), g: UInt8(sg / blob.count), b: UInt8(sb / blob.count)),
                                     place: place, area: n * k * k))
        }
        return found
    }

    /// In a side view a bag on the board stands up from the thin top surface, so its centre may
    /// lie a little above the quadrilateral.
    private func onTop(_ c: PlanePoint, quad: [PlanePoint], overhead: Bool, bag: Double) -> Bool {
        if polygonContains(quad, c) { return true }
        guard !overhead else { return false }
        return polygonContains(quad, PlanePoint(c.x, c.y + 0.4 * bag))
    }
}

private func median(_ v: [Double]) -> Double {
    let s = v.sorted()
    return s.isEmpty ? 0 : s[s.count / 2]
}
