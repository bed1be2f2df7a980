/// The pictures of the census' last two rest states and of this one: what `BagCensus.reconcile`
/// asks of their pixels, by name.
struct RestStatePictures {
    var beforeLast: BagScan?
    var last: BagScan?
    var now: BagScan?
    /// Whether a blob showed away from the last rest state's blobs since then (a bag arriving in
    /// flight, or anything else that moved in view).
    var arrived: Bool
    /// One bag's side, picture pixels.
    var bagSide: Double

    /// The blobs of the last rest state (none before the first).
    var lastSightings: [BagSighting] { last?.sightings ?? [] }

    /// Whether blob `s` came to rest by the last rest state, unseen there: most of its pixels
    /// changed since the rest state before the last, few since the last.
    func restedUnseen(_ s: BagSighting) -> Bool {
        guard let beforeLast, let last, let now else { return false }
        return (RestStateDifference.changedShare(of: s, from: last, to: now) ?? 1) < 0.5
            && (RestStateDifference.changedShare(of: s, from: beforeLast, to: now) ?? 0) >= 0.5
    }

    /// Of the pixels of blob `s` that changed at the last rest state, the share now back as they
    /// were at the rest state before it; nil when something arrived since (a bag that arrived,
    /// another throw, stirs the blobs it comes down by).
    func revertedShare(of s: BagSighting) -> Double? {
        guard !arrived, let beforeLast, let last, let now else { return nil }
        return RestStateDifference.revertedShare(of: s, before: beforeLast, last: last, now: now)
    }

    /// Of blob `s`'s bag-coloured pixels, the share bag-coloured at the last rest state (in its
    /// scan's mask: faint pixels only where they touch bag colour).
    func heldShare(of s: BagSighting) -> Double? {
        guard let last, let now else { return nil }
        return RestStateDifference.heldShare(of: s, from: last, to: now)
    }

    /// Of the pixels where a bag lay at the last rest state (a bag's box about `p`), the share
    /// that changed since.
    func changedShare(whereABagLay p: PlanePoint) -> Double? {
        guard let last, let now else { return nil }
        return RestStateDifference.changedShare(from: p - bagBox, to: p + bagBox, before: last, after: now)
    }

    /// ... and the share that changed from the rest state before the last to the last.
    func cameShare(whereABagLay p: PlanePoint) -> Double? {
        guard let beforeLast, let last else { return nil }
        return RestStateDifference.changedShare(from: p - bagBox, to: p + bagBox, before: beforeLast, after: last)
    }

    /// ... and the share bag-coloured now (in a blob or too few for one).
    func bagColouredShare(whereABagLay p: PlanePoint) -> Double? {
        guard let now else { return nil }
        return RestStateDifference.bagColouredShare(from: p - bagBox, to: p + bagBox, in: now)
    }

    /// Half a bag's box in a side view: a bag's side across, half that high.
    private var bagBox: PlanePoint { PlanePoint(0.5 * bagSide, 0.25 * bagSide) }
}
