/// A corpus of games spread over every variation: each item's settings come from its seed, then
/// the item's number walks through sides, player counts, sizes, frame rates, settle periods and
/// nuisance switches so that every combination class appears.
///
/// ```swift
/// for item in CorpusPlan(name: "ci", count: 12).items { SynthGame(settings: item.settings) }
/// ```
public struct CorpusPlan: Sendable {
    public struct Item: Sendable {
        public var name: String
        public var settings: SynthSettings
    }

    public let name: String
    public let items: [Item]

    public init(name: String, count: Int, baseSeed: UInt64 = 1000, throwCount: Int? = nil, maxWidth: Int? = nil) {
        self.name = name
        let sizes = [(640, 360), (1280, 720), (960, 540), (1920, 1080)]
        var items: [Item] = []
        for k in 0..<count {
            let seed = baseSeed &+ UInt64(k)
            var s = SynthSettings.random(seed: seed)
            s.side = k % 2 == 0 ? .left : .right
            s.setPlayerCount((k / 2) % 2 + 1)
            var (w, h) = sizes[(k / 4) % sizes.count]
            if let maxWidth, w > maxWidth { (w, h) = (640, 360) }
            s.width = w
            s.height = h
            s.fps = (k / 3) % 2 == 0 ? 30 : 60
            s.camera.settleSeconds = [0, 1.5, 3][k % 3]
            s.nuisances.bird = (k / 5) % 2 == 1
            s.nuisances.farPerson = (k / 6) % 2 == 1
            s.nuisances.motionBlur = k % 4 != 3
            s.styles = []
            if let throwCount { s.throwCount = throwCount }
            items.append(Item(name: String(format: "%@-%04d", name, k), settings: s))
        }
        self.items = items
    }
}
