/// The game's numbers in one place, with their meaning. Most come from Apple's
/// Action & Vision sample (`GameConstants`), converted from view points to
/// normalized image coordinates so they do not depend on the resolution.
public enum GameConstants {
    /// Throws in one game in Apple's mode.
    public static let maxThrows = 8
    /// Points multiplier for an underleg throw in Apple's mode.
    public static let underlegMultiplier = 5
    /// Board length along the throw line, metres (48 in).
    public static let boardLengthMetres = 1.22
    /// A bag's side (6 in).
    public static let bagSideMetres = 0.152
    /// Metres per second to miles per hour.
    public static let mphPerMps = 2.23694

    /// Minimum board detection confidence.
    public static let boardConfidence = 0.6
    /// Minimum body pose presence for a detected player.
    public static let poseConfidence = 0.6
    /// Minimum confidence of one joint to be used.
    public static let jointConfidence = 0.1
    /// A trajectory observation must be more confident than this. Apple uses 0.9 for Vision's
    /// confidence; ours measures the fit against a bag-size tolerance, and real flights seen by an
    /// elevated camera score 0.6–0.95 (measured on synthetic games: 0.9 found half the throws,
    /// 0.6 seven of eight, with no false throw). Direction and regions reject the rest.
    public static let trajectoryConfidence = 0.6

    /// Consecutive board observations needed after the board is first found
    /// (the "board placement" stage: the board stays put).
    public static let boardPlacementObservations = 3
    /// Registration samples the scene-stability stage needs (Apple: more than 15).
    public static let stabilitySamples: UInt32 = 16
    /// Consecutive pose observations with a person before the player counts as detected.
    public static let playerObservations = 3
    /// Someone less than this share of the player's height in the picture (a walker far behind)
    /// does not take the player's place while the player was seen within `playerHoldUs`: the pose
    /// worker can lose the thrower in the swing and keep only such a walker for seconds.
    public static let fartherPersonShare = 0.5
    public static let playerHoldUs: Int64 = 3_000_000

    /// A throw in flight ends when no accepted observation arrived for more than this many frames.
    public static let noObservationFrameLimit: UInt64 = 20
    /// Frames a re-acquired bag must be followed before the trajectory worker reports its new
    /// track (its default `trajectoryLength`): a throw lost in mid-flight, short of the board,
    /// waits this much longer for its continuation.
    public static let reacquiredTrackFrames: UInt64 = 15
    /// ... or when this many observations were rejected in a row while in flight.
    public static let maxRejectedObservations = 20

    /// Poses kept for the throw-type window.
    public static let maxPoseObservations = 45
    /// Poses still stored once the bag is in flight.
    public static let maxInFlightPoseObservations = 10

    /// Throw region: starts this far beyond the player's box (Apple: 50 pt of a 1920 px frame).
    public static let throwRegionGap = 50.0 / 1920.0
    /// Throw region width (Apple: 400 pt of a 1920 px frame), but at least up to the midpoint to the board.
    public static let throwRegionWidth = 400.0 / 1920.0
    /// Margin around the board for the target region (Apple: 50 pt).
    public static let targetMargin = 50.0 / 1920.0
    /// Largest distance between the end of the throw so far and the start of a
    /// new fragment for the region of interest to follow the bag (Apple: 250 pt).
    public static let maxDistanceWithCurrentTrajectory = 250.0 / 1920.0
    /// Board and hole regions are extended upward by this much (normalized height)
    /// before the landing test: the bag's centroid sits above the surface it rests on.
    public static let regionExtendUp = 0.03
    /// A path whose curvature |a| (y = a x^2 + b x + c) is below this is a straight line: a distractor.
    public static let minimumCurvature = 0.15
    /// Fragments join when the next starts within this distance of the previous end...
    public static let joinDistance = 0.08
    /// ... and within this time.
    public static let joinGapUs: Int64 = 500_000
    /// Two simultaneous tracks are "parallel" when their x positions at common
    /// times differ by less than this (a bag and its shadow move together).
    public static let shadowMaxDX = 0.05
    /// After a throw completes, wait this many frames for the board census to confirm the outcome.
    public static let censusWaitFrames: UInt64 = 60
    /// How long (media time) an outcome read from a rest state with no new bag in view waits for
    /// a later rest state to show the bag after all, unless the next throw begins first. People
    /// walking past can hold the scene from rest for seconds (dev3-0003: the bag showed 4.08 s on).
    public static let laterRestWaitUs: Int64 = 5_000_000
    /// A rest state followed this soon (media time) by another, with no new bag in view in
    /// either, was a pause: the later one judges the throw (`Game.judge`).
    public static let pauseUs: Int64 = 1_000_000
    /// How far back (media time) the game keeps what it was given before it began tracking
    /// throws, to play a throw made meanwhile again once it has (`PreTrackingBuffer`): on the
    /// development games the board was first found up to 3.6 s after such a throw's release.
    public static let preTrackingSpanUs: Int64 = 8_000_000
}
