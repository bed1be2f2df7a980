/// The seed's choices for everything a game leaves open.
extension SynthSettings {
    static let boardPalette = [
        RGB(205, 165, 112), RGB(232, 230, 222), RGB(236, 200, 70), RGB(40, 140, 140), RGB(140, 175, 222),
        RGB(190, 60, 50),
    ]
    static let groundPalette = [RGB(78, 126, 56), RGB(96, 138, 62), RGB(64, 110, 58), RGB(150, 140, 118), RGB(120, 112, 100)]
    static let skinPalette = [RGB(241, 194, 160), RGB(224, 172, 130), RGB(198, 134, 96), RGB(141, 85, 54), RGB(92, 58, 38)]
    static let hairPalette = [RGB(40, 28, 20), RGB(90, 60, 30), RGB(170, 130, 70), RGB(20, 20, 20), RGB(130, 130, 130)]
    static let shirtPalette = [
        RGB(200, 40, 40), RGB(40, 80, 180), RGB(240, 240, 240), RGB(40, 150, 70), RGB(230, 150, 30), RGB(90, 40, 120),
        RGB(60, 60, 60),
    ]
    static let trouserPalette = [RGB(40, 50, 90), RGB(30, 30, 35), RGB(120, 100, 70), RGB(70, 70, 80), RGB(150, 150, 140)]
    static let bagColours = [RGB(210, 30, 35), RGB(25, 70, 200)]

    /// A complete game picked by the seed: one player (Apple's rules) or two (official rules).
    public static func random(seed: UInt64) -> SynthSettings {
        var rng = SplitMix64(seed: seed, stream: 1)
        let resolutions = [(640, 360), (960, 540), (1280, 720), (1920, 1080)]
        let (w, h) = rng.pick(resolutions)
        let fps = rng.chance(0.7) ? 30 : 60
        let side: ThrowerSide = rng.chance(0.5) ? .left : .right
        let settle = rng.chance(0.3) ? 0 : rng.uniform(0.5, 3)
        let camera = CameraSettings(
            distance: rng.uniform(9, 15), height: rng.uniform(1.8, 4.5), settleSeconds: settle,
            panPixels: rng.uniform(10, 60), shakePixels: rng.uniform(1, 6))
        let nuisances = NuisanceSettings(
            noiseSigma: rng.uniform(0, 6), gain: rng.uniform(0.75, 1.2), gradient: rng.uniform(0, 0.35),
            gradientAngleDegrees: rng.uniform(0, 360), texturedGround: rng.chance(0.8),
            texturedBackground: rng.chance(0.8), bird: rng.chance(0.4), farPerson: rng.chance(0.4),
            motionBlur: rng.chance(0.6), crf: rng.int(16, 30), restingBags: rng.chance(0.3) ? rng.int(1, 3) : 0)
        let twoPlayers = rng.chance(0.4)
        var players: [PlayerSettings] = []
        for i in 0..<(twoPlayers ? 2 : 1) {
            players.append(PlayerSettings(
                name: "P\(i + 1)", height: rng.uniform(1.6, 1.9), skin: rng.pick(skinPalette),
                hair: rng.pick(hairPalette), shirt: rng.pick(shirtPalette), trousers: rng.pick(trouserPalette),
                shoes: rng.chance(0.5) ? RGB(235, 235, 235) : RGB(35, 35, 40), bag: bagColours[i]))
        }
        let ground = rng.pick(groundPalette)
        var board = rng.pick(boardPalette)
        // The board must stand out from the ground.
        while abs(board.luma - ground.luma) < 50 { board = rng.pick(boardPalette) }
        return SynthSettings(
            seed: seed, width: w, height: h, fps: fps, side: side, camera: camera, nuisances: nuisances,
            players: players, rules: twoPlayers ? .official : .apple, throwCount: 8, styles: [],
            negativeActionRate: 0.5, aimSpread: rng.uniform(0.3, 1.0), boardColor: board, groundColor: ground,
            boardFrontHeight: rng.uniform(0.076, 0.10))
    }

    /// A second player with the seed's looks (for turning a one-player game into two).
    static func secondPlayer(seed: UInt64) -> PlayerSettings {
        var rng = SplitMix64(seed: seed, stream: 2)
        return PlayerSettings(
            name: "P2", height: rng.uniform(1.6, 1.9), skin: rng.pick(skinPalette), hair: rng.pick(hairPalette),
            shirt: rng.pick(shirtPalette), trousers: rng.pick(trouserPalette), shoes: RGB(35, 35, 40),
            bag: bagColours[1])
    }

    /// Sets the number of players, keeping the rules consistent (1: Apple, 2: official).
    public mutating func setPlayerCount(_ count: Int) {
        if count <= 1 {
            players = [players[0]]
            rules = .apple
        } else {
            if players.count < 2 { players.append(Self.secondPlayer(seed: seed)) }
            rules = .official
        }
    }
}
