import Foundation
import PitchsideCore

// Conversions from the detection analysers' results to the wire messages (normalized
// coordinates, top-left origin).

extension PSPoint {
    init(_ p: PlanePoint, width: Int, height: Int) {
        self.init()
        x = p.x / Double(width)
        y = p.y / Double(height)
    }
}

extension PSBoardObservation {
    /// A found board. The hole's radii are its semi-axes divided by the picture width (x) and
    /// height (y); `angle_deg` is the major axis' direction.
    public init(_ d: BoardDetection, header: PSHeader) {
        self.init()
        self.header = header
        found = true
        corners = d.corners.map { PSPoint($0, width: d.imageWidth, height: d.imageHeight) }
        var e = PSEllipse()
        e.center = PSPoint(d.hole.center, width: d.imageWidth, height: d.imageHeight)
        e.radiusX = d.hole.semiMajor / Double(d.imageWidth)
        e.radiusY = d.hole.semiMinor / Double(d.imageHeight)
        e.angleDeg = d.hole.angleDegrees
        hole = e
        metresPerPixel = d.metresPerPixel
        confidence = d.confidence
        let b = d.boundingBox
        var r = PSRect()
        r.x = b.x / Double(d.imageWidth)
        r.y = b.y / Double(d.imageHeight)
        r.width = b.width / Double(d.imageWidth)
        r.height = b.height / Double(d.imageHeight)
        boundingBox = r
    }

    /// No board, and why.
    public init(notFound reason: String, confidence: Double, header: PSHeader) {
        self.init()
        self.header = header
        found = false
        self.reason = reason
        self.confidence = confidence
    }
}

extension PSStabilityObservation {
    public init(_ r: StabilityResult, header: PSHeader) {
        self.init()
        self.header = header
        tx = r.tx
        ty = r.ty
        stable = r.stable
        sampleCount = UInt32(r.sampleCount)
        summedShift = r.summedShift
    }
}

extension PSBagPlace {
    public init(_ p: BagPlacement) {
        switch p {
        case .onBoard: self = .onBoard
        case .inHole: self = .inHole
        case .onGround: self = .onGround
        }
    }
}

extension PSCensusChangeKind {
    public init(_ k: CensusChange.Kind) {
        switch k {
        case .newBag: self = .censusChangeNewBag
        case .knockedIn: self = .censusChangeKnockedIn
        case .knockedOff: self = .censusChangeKnockedOff
        case .removed: self = .censusChangeRemoved
        case .reshaded: self = .censusChangeReshaded
        case .seenAgain: self = .censusChangeSeenAgain
        }
    }
}

extension PSBoardCensus {
    public init(_ r: CensusResult, header: PSHeader) {
        self.init()
        self.header = header
        bags = r.bags.map { b in
            var m = PSBagAtRest()
            m.id = b.id
            m.position = PSPoint(b.center, width: r.imageWidth, height: r.imageHeight)
            var c = PSColor()
            c.r = UInt32(b.colour.r)
            c.g = UInt32(b.colour.g)
            c.b = UInt32(b.colour.b)
            m.color = c
            m.place = PSBagPlace(b.place)
            m.sincePtsUs = b.sincePtsUs
            return m
        }
        onBoard = UInt32(r.onBoard)
        inHole = UInt32(r.inHole)
        onGround = UInt32(r.onGround)
        changes = r.changes.map { ch in
            var m = PSCensusChange()
            m.kind = PSCensusChangeKind(ch.kind)
            m.bagID = ch.bagID
            m.place = PSBagPlace(ch.place)
            m.inferred = ch.inferred
            return m
        }
    }
}
