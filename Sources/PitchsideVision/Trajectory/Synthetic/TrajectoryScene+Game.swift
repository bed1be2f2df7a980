/// Ready-made scenes: a short game of several throws, for benchmarks and command-line checks.
extension TrajectoryScene {
    /// A side-on game at any resolution: a board with resting bags, a player walking a
    /// little, `throwCount` bags thrown one after another (each with its shadow), a bird, noise
    /// σ = `noise`. Sizes scale with the width (a bag is 1.4% of it). Returns the scene, the
    /// number of frames it lasts and the indices of the thrown bags.
    public static func game(
        width: Int, height: Int, seed: UInt64, throwCount: Int = 4, noise: Double = 3
    ) -> (scene: TrajectoryScene, frames: Int, bags: [Int]) {
        var scene = TrajectoryScene(width: width, height: height, seed: seed)
        scene.noiseSigma = noise
        let w = Double(width), h = Double(height)
        let bag = 0.014 * w
        var rng = SceneRandom(seed: seed ^ 0xBA6)
        let boardX = 0.82 * w, boardY = 0.78 * h
        scene.add(.rectangle(width: 0.17 * w, height: 0.035 * h, gray: 205), path: .fixed(x: boardX, y: boardY))
        scene.add(.square(size: bag, gray: 55), path: .fixed(x: boardX - 0.05 * w, y: boardY - 0.003 * h))
        scene.add(.square(size: bag, gray: 55), path: .fixed(x: boardX + 0.06 * w, y: boardY))
        let period = 2.2
        let duration = period * Double(throwCount) + 0.8
        scene.add(.rectangle(width: 0.05 * w, height: 0.3 * h, gray: 45),
                  path: .linear(start: 0, end: duration, x0: 0.1 * w, y0: 0.62 * h, vx: 0.01 * w, vy: 0))
        scene.add(.rectangle(width: 0.012 * w, height: 0.008 * h, gray: 35),
                  path: .linear(start: 0.5, end: duration, x0: 0.95 * w, y0: 0.12 * h, vx: -0.25 * w, vy: 0.03 * h))
        var bags: [Int] = []
        for k in 0..<throwCount {
            let start = 0.6 + period * Double(k)
            let flight = 1.1 + 0.3 * rng.uniform()
            let x0 = 0.17 * w, y0 = 0.55 * h
            let x1 = boardX + (rng.uniform() - 0.5) * 0.12 * w, y1 = boardY - 0.02 * h
            let vx = (x1 - x0) / flight
            let ay = (0.75 + 0.3 * rng.uniform()) * h                      // image heights / s²
            let vy = (y1 - y0 - 0.5 * ay * flight * flight) / flight
            let groundY = 0.9 * h
            scene.add(.shadow(diameter: 1.3 * bag, darkening: 0.35, blur: 0.4 * bag),
                      path: .linear(start: start, end: start + flight, x0: x0, y0: groundY, vx: vx, vy: (boardY - groundY) / flight))
            bags.append(scene.add(.square(size: bag, gray: k % 2 == 0 ? 230 : 40), path: .sequence([
                .ballistic(start: start, end: start + flight, x0: x0, y0: y0, vx: vx, vy: vy, ay: ay),
                .fixed(x: x1, y: y1),
            ])))
        }
        return (scene, Int(duration * scene.framesPerSecond), bags)
    }
}
