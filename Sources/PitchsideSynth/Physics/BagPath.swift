import Foundation

/// One bag's whole path from release to rest, with its phases: what the renderer draws and
/// what the truth records.
public struct BagPath: Sendable {
    public let release: Vec3
    public let velocity: Vec3
    /// Seconds from release to first contact.
    public let landingTime: Double
    public let firstContact: FirstContact
    public let place: BagPlace
    /// Positions after the first contact, one every `step` seconds.
    let samples: [Vec3]
    let phases: [BagPhase]
    let step: Double

    /// Seconds from release until the bag is at rest (or gone through the hole).
    public var restTime: Double { landingTime + Double(samples.count - 1) * step }

    public var restPosition: Vec3 { samples.last ?? BagPhysics.ballistic(release, velocity, landingTime) }

    public var landingPoint: Vec3 { BagPhysics.ballistic(release, velocity, landingTime) }

    /// Where the bag is t seconds after release.
    public func position(at t: Double) -> Vec3 {
        if t <= landingTime { return BagPhysics.ballistic(release, velocity, max(t, 0)) }
        let k = (t - landingTime) / step
        let i = Int(k)
        if i >= samples.count - 1 { return samples[samples.count - 1] }
        let f = k - Double(i)
        return samples[i] + (samples[i + 1] - samples[i]) * f
    }

    public func phase(at t: Double) -> BagPhase {
        if t <= landingTime { return .flight }
        let i = min(Int((t - landingTime) / step), phases.count - 1)
        return phases[i]
    }

    /// Release speed, m/s.
    public var speed: Double { velocity.length }
    /// The bag's launch angle against the horizontal, degrees.
    public var launchDegrees: Double { degrees(atan2(velocity.y, velocity.horizontalLength)) }
}
