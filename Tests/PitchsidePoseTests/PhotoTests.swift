import PitchsideCore
import PitchsidePose
import XCTest

/// BlazePose on real photographs (fetched into the cache by ops/setup).
final class PhotoTests: XCTestCase {
    /// Hand-drawn boxes around the person in each photo (pixels), generous by a few pixels.
    static let people: [(name: String, box: PoseBox)] = [
        ("messi5.jpg", PoseBox(minX: 55, minY: 50, maxX: 470, maxY: 342)),           // footballer mid-kick
        ("basketball1.png", PoseBox(minX: 25, minY: 70, maxX: 170, maxY: 480)),      // man catching a ball, left
        ("astronaut.png", PoseBox(minX: 10, minY: 5, maxX: 375, maxY: 512)),         // portrait to the waist
    ]

    func testFindsThePersonInEachPhotograph() throws {
        let estimator = try TestImages.estimator()
        for (name, truth) in Self.people {
            estimator.reset()
            let image = try TestImages.photo(name)
            guard let pose = estimator.process(image) else {
                XCTFail("\(name): nobody found")
                continue
            }
            XCTAssertGreaterThan(pose.presence, 0.9, name)
            XCTAssertEqual(pose.landmarks.count, 33)
            XCTAssertEqual(pose.joints.count, 18)
            let visible = pose.joints.filter { $0.confidence >= 0.5 }
            XCTAssertGreaterThanOrEqual(visible.count, 8, "\(name): too few visible joints")
            for joint in visible {
                XCTAssertTrue(pose.personBox.contains(joint.position), "\(name): \(joint.name) outside the person box")
                XCTAssertTrue(truth.contains(joint.position), "\(name): \(joint.name) at \(joint.position) off the person")
            }
            // The reported box lies on the person: its centre inside the drawn box,
            // and most of it overlapping.
            XCTAssertTrue(truth.contains(pose.personBox.center), name)
            let inter = PoseBox(minX: max(truth.minX, pose.personBox.minX), minY: max(truth.minY, pose.personBox.minY),
                                maxX: min(truth.maxX, pose.personBox.maxX), maxY: min(truth.maxY, pose.personBox.maxY))
            XCTAssertGreaterThan(inter.area / pose.personBox.area, 0.8, name)
        }
    }

    func testKnownJointsLandWhereTheyShould() throws {
        // Spot checks of a few obvious joints (pixels, within 15 px).
        let estimator = try TestImages.estimator()
        let pose = try XCTUnwrap(estimator.process(try TestImages.photo("basketball1.png")))
        func near(_ joint: JointName, _ x: Float, _ y: Float) {
            let p = pose.joint(joint).position
            XCTAssertLessThan(p.distance(to: PosePoint(x: x, y: y)), 15, "\(joint) at \(p)")
        }
        near(.nose, 96, 120)
        near(.rightAnkle, 60, 440)   // the person's right: the image's left
        near(.leftAnkle, 120, 435)
    }

    func testNoPoseInAPhotoWithoutPeople() throws {
        let estimator = try TestImages.estimator()
        let image = try TestImages.photo("fruits.jpg")
        XCTAssertNil(estimator.process(image))
        XCTAssertNil(estimator.process(image))   // the second frame's search (next tiles) finds nobody either
        XCTAssertGreaterThan(estimator.statistics.detectorRuns, 1)
    }

    func testTracksWithoutTheDetectorAndFollowsMotion() throws {
        let estimator = try TestImages.estimator()
        let image = try TestImages.photo("messi5.jpg")
        let first = try XCTUnwrap(estimator.process(image))
        XCTAssertTrue(first.usedDetector)
        let runs = estimator.statistics.detectorRuns
        // Let the tracked region settle, then move the scene 12 px right and 6 px down.
        var still = first
        for _ in 0..<2 { still = try XCTUnwrap(estimator.process(image)) }
        let moved = TestImages.shifted(image, dx: 12, dy: 6)
        var after = still
        for _ in 0..<3 { after = try XCTUnwrap(estimator.process(moved)) }
        XCTAssertFalse(after.usedDetector)
        XCTAssertEqual(estimator.statistics.detectorRuns, runs, "tracking alone, no detector")
        for name in [JointName.leftShoulder, .rightShoulder, .leftHip, .rightHip, .nose] {
            let a = still.joint(name).position, b = after.joint(name).position
            XCTAssertEqual(b.x - a.x, 12, accuracy: 6, "\(name)")
            XCTAssertEqual(b.y - a.y, 6, accuracy: 6, "\(name)")
        }
    }

    func testFindsASmallPersonInAWideFrame() throws {
        // The basketball player scaled to 72 px tall on a 640 × 360 frame, as a
        // thrower seen from across the court (DESIGN §6): too small for the
        // whole-frame detector, found by the tiled search.
        let source = try TestImages.photo("basketball1.png")
        let frame = TestImages.pasted(source, crop: PoseBox(minX: 0, minY: 40, maxX: 200, maxY: 480),
                                      height: 72, at: PosePoint(x: 480, y: 200), canvasWidth: 640, canvasHeight: 360)
        let estimator = try TestImages.estimator()
        var found: PoseResult?
        for _ in 0..<2 where found == nil { found = estimator.process(frame) }
        let pose = try XCTUnwrap(found, "small person not found in 2 frames")
        let place = PoseBox(minX: 480, minY: 200, maxX: 480 + 72 * 200 / 440, maxY: 272)
        XCTAssertTrue(PoseBox(minX: place.minX - 8, minY: place.minY - 8, maxX: place.maxX + 8, maxY: place.maxY + 8)
                        .contains(pose.joint(.nose).position), "nose at \(pose.joint(.nose).position)")
        XCTAssertGreaterThan(pose.presence, 0.5)
    }

    /// Someone lost while another stays tracked is looked for where they were lost, on the next
    /// frame: the looks for more people come only every few frames, and at the scale of those
    /// still tracked, which misses a thrower near the camera lost in the swing while a far walker
    /// stays tracked (held24-0009 at 960 × 540: the thrower gone from the poses for 200 frames
    /// after throw 1's swing, and the throw lost with him).
    func testFindsSomeoneLostAgainWhereTheyWereLostWhileAnotherIsTracked() throws {
        let source = try TestImages.photo("basketball1.png")
        let crop = PoseBox(minX: 0, minY: 40, maxX: 200, maxY: 480)
        let walkerOnly = TestImages.pasted(source, crop: crop, height: 160, at: PosePoint(x: 300, y: 200),
                                           canvasWidth: 960, canvasHeight: 540)
        var both = walkerOnly
        TestImages.paste(source, crop: crop, height: 160, at: PosePoint(x: 800, y: 280), into: &both)
        let thrower = PoseBox(minX: 790, minY: 270, maxX: 800 + 160 * 200 / 440 + 10, maxY: 450)
        func throwerFound(_ people: [PoseResult]) -> Bool { people.contains { thrower.contains($0.personBox.center) } }

        // Looks for more people at 1.5 times the height of those tracked (not 2.5): this
        // photograph's player is found only when he fills more of the detector's view.
        let estimator = try PoseEstimator(assets: PoseAssets.default(),
                                          configuration: .init(threads: 1, search: SearchPlan(aroundLastScale: 1.5)))
        var people: [PoseResult] = []
        var frames = 0
        while people.count < 2, frames < 120 { people = estimator.processPeople(both); frames += 1 }
        XCTAssertEqual(people.count, 2, "both tracked before the thrower is lost: \(people.map(\.personBox))")
        XCTAssertTrue(throwerFound(people))
        XCTAssertFalse(throwerFound(estimator.processPeople(walkerOnly)), "the thrower is lost")
        let runsBefore = estimator.statistics.detectorRuns
        XCTAssertTrue(throwerFound(estimator.processPeople(both)), "found again on the next frame")
        XCTAssertEqual(estimator.statistics.detectorRuns, runsBefore + 1, "by one detector run where he was lost")
        for _ in 0..<5 { XCTAssertTrue(throwerFound(estimator.processPeople(both))) }
    }
}
