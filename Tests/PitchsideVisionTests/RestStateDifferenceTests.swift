import PitchsideCore
import XCTest
@testable import PitchsideVision

/// What counts as a new bag between two rest states, pixel by pixel.
final class RestStateDifferenceTests: XCTestCase {
    private static let board: (UInt8, UInt8, UInt8) = (230, 200, 40)
    private static let navy: (UInt8, UInt8, UInt8) = (20, 30, 110)
    /// The navy bag lit a little differently: 24–72 `ColourFeature` units from it.
    private static let navyReshaded: (UInt8, UInt8, UInt8) = (60, 70, 170)
    private static let red: (UInt8, UInt8, UInt8) = (200, 30, 30)
    private static let width = 48, height = 24
    /// One bag's area at rest: a 10 × 6 patch.
    private static let bagArea = 60.0

    /// A board-coloured region with rectangles of bag colour (x0, y0, x1, y1 exclusive), and
    /// rectangles painted that the finder did not take for bag (`unmasked`: a bag's darkest
    /// pixels lost in dark ground).
    private func scan(_ bags: [(Int, Int, Int, Int, (UInt8, UInt8, UInt8))],
                      unmasked: [(Int, Int, Int, Int, (UInt8, UInt8, UInt8))] = [],
                      board: (UInt8, UInt8, UInt8) = RestStateDifferenceTests.board) -> BagScan {
        let w = Self.width, h = Self.height
        var rgb = [UInt8](repeating: 0, count: w * h * 3)
        var mask = [UInt8](repeating: 0, count: w * h)
        for i in 0..<(w * h) { (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]) = board }
        let painted = bags.map { ($0, UInt8(1)) } + unmasked.map { ($0, UInt8(0)) }
        for ((x0, y0, x1, y1, c), isBag) in painted {
            for y in y0..<y1 {
                for x in x0..<x1 {
                    let i = y * w + x
                    (rgb[3 * i], rgb[3 * i + 1], rgb[3 * i + 2]) = c
                    mask[i] = isBag
                }
            }
        }
        return BagScan(sightings: [], origin: (0, 0), width: w, height: h,
                       colours: WorkImage(width: w, height: h, rgb: rgb, scale: 1), bagMask: mask, scale: 1,
                       singleBagArea: Self.bagArea)
    }

    /// A resting bag whose pixels change shade (a bag dropped into the hole beside it, the
    /// encoder drew it differently) is the same bag: no new one.
    func testReshadedBagIsNotNew() throws {
        let before = scan([(10, 8, 20, 14, Self.navy)])
        let after = scan([(10, 8, 20, 14, Self.navyReshaded)])
        let difference = try XCTUnwrap(RestStateDifference(from: before, to: after))
        XCTAssertEqual(difference.appeared, [])
        XCTAssertFalse(RestStateDifference.anyChange(from: before, to: after))
        // ... but it is told, for the game to weigh against the flight.
        XCTAssertEqual(difference.reshaded.count, 1)
        XCTAssertEqual(try XCTUnwrap(difference.reshaded.first).center.x, 15, accuracy: 1)
    }

    /// A navy bag come to rest on a light blue top changes mostly brightness (held7-0002 throw
    /// 8 at 640×360: the top (99, 122, 146), the bag's blurred pixels 15–28 `ColourFeature` units
    /// from it, six of 28 past `changeThreshold`): it is new all the same. Here the bag has the
    /// top's chroma exactly, at 0.37 of its brightness (19 units).
    func testADarkBagOfTheTopsHueIsNew() throws {
        let lightBlue: (UInt8, UInt8, UInt8) = (99, 122, 146), darkBlue: (UInt8, UInt8, UInt8) = (22, 45, 69)
        let before = scan([], board: lightBlue)
        let after = scan([(10, 8, 20, 14, darkBlue)], board: lightBlue)
        let difference = try XCTUnwrap(RestStateDifference(from: before, to: after))
        XCTAssertEqual(difference.appeared.count, 1)
        XCTAssertEqual(try XCTUnwrap(difference.appeared.first).center.x, 15, accuracy: 1)
        XCTAssertTrue(RestStateDifference.anyChange(from: before, to: after))
        // ... and one that leaves is gone.
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: after, to: before)).disappeared.count, 1)
    }

    /// A bag of another colour over a resting one changes pixels that were bag already, by far.
    func testOtherColourOverABagIsNew() throws {
        let before = scan([(10, 8, 20, 14, Self.navy)])
        let after = scan([(10, 8, 20, 14, Self.red)])
        let difference = try XCTUnwrap(RestStateDifference(from: before, to: after))
        XCTAssertEqual(difference.appeared.count, 1)
    }

    /// A bag of the same colour on top of a resting one (a pile stands taller) is counted by the
    /// pixels that were board before.
    func testSameColourOnTopIsCountedByItsNewPixels() throws {
        let before = scan([(10, 10, 20, 16, Self.navy)])
        let after = scan([(10, 10, 20, 16, Self.navyReshaded), (10, 5, 20, 10, Self.navy)])
        let difference = try XCTUnwrap(RestStateDifference(from: before, to: after))
        XCTAssertEqual(difference.appeared.count, 1)
        let patch = try XCTUnwrap(difference.appeared.first)
        XCTAssertLessThan(patch.center.y, 10, "the new pixels are those above the pile")
    }

    /// A bag come down on a pile of its own colour on a small board: the part of it over board
    /// (14 pixels, 0.23 of a bag, after the blur) and the part over the pile, re-shaded (16
    /// pixels, 0.27), are each too small for a patch; together, side by side, they are a new bag
    /// (dev3-0016 throw 8).
    func testSameColourOnTopOfAPileWithSmallNewAndReshadedPartsIsNew() throws {
        let before = scan([(10, 10, 20, 16, Self.navy)])
        let after = scan([(15, 8, 20, 10, Self.navy), (11, 10, 20, 14, Self.navyReshaded), (10, 10, 11, 14, Self.navy),
                          (10, 14, 20, 16, Self.navy)])
        let parts = try XCTUnwrap(RestStateDifference.patches(from: before, to: after))
        XCTAssertEqual(parts.appeared, [], "the new part alone is short of a patch")
        XCTAssertEqual(parts.reshaded, [], "the re-shaded part alone is short of a patch")
        let difference = try XCTUnwrap(RestStateDifference(from: before, to: after))
        XCTAssertEqual(difference.appeared.count, 1)
        let patch = try XCTUnwrap(difference.appeared.first)
        XCTAssertEqual(patch.area, 30, accuracy: 0.5)
        XCTAssertEqual(patch.center.y, 10.5, accuracy: 1.5, "the bag lies across the pile's top edge")
    }

    /// The same pixels changed on a pile when nothing was seen arriving since the last rest state:
    /// a bag of the pile still settling, not one come down on it (dev4-0008: the bag counted at
    /// the last rest state slid on a little, and was counted again).
    func testAPileChangedWithNothingArrivingIsNotNew() throws {
        let before = scan([(10, 10, 20, 16, Self.navy)])
        let after = scan([(15, 8, 20, 10, Self.navy), (11, 10, 20, 14, Self.navyReshaded), (10, 10, 11, 14, Self.navy),
                          (10, 14, 20, 16, Self.navy)])
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: after, arriving: true)).appeared.count, 1)
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: after, arriving: false)).appeared, [])
        // A bag of another colour is new whatever was seen.
        let red = scan([(10, 10, 20, 16, Self.navy), (22, 10, 32, 16, Self.red)])
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: red, arriving: false)).appeared.count, 1)
    }

    /// A bag that grew by a piece short of most of a bag, with nothing seen arriving since the
    /// last rest state: it was still settling there (held5-0016: a yellow bag on a white top at
    /// 640×360 grew by 10 pixels of 26 and was counted twice). Seen arriving, the piece is a
    /// bag come down beside it; a whole bag is new either way.
    func testAPieceGrownOnABagWithNothingArrivingIsNotNew() throws {
        let before = scan([(10, 8, 20, 14, Self.navy)])
        let grown = scan([(10, 8, 20, 14, Self.navy), (20, 8, 24, 14, Self.navy)])  // 24 pixels: 0.4 of a bag
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: grown, arriving: true)).appeared.count, 1)
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: grown, arriving: false)).appeared, [])
        let another = scan([(10, 8, 20, 14, Self.navy), (24, 8, 34, 14, Self.navy)])
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: another, arriving: false)).appeared.count, 1)
    }

    /// A bag that shifted a little leaves as many pixels turned back to board as turned bag
    /// beside them: a move, no new bag. A bag of another colour that came down on it and pushed
    /// it leaves far more new than gone, side by side: a new bag (dev7-0010 throw 3, a navy bag on
    /// a yellow one: a bag's area appeared beside 0.4 of one gone, and both were taken for a move).
    func testABagPushedByOneComingDownOnItIsANewBagNotAMove() throws {
        let before = scan([(10, 10, 20, 16, Self.navy)])
        let shifted = scan([(14, 10, 24, 16, Self.navy)])
        let moved = try XCTUnwrap(RestStateDifference(from: before, to: shifted))
        XCTAssertEqual(moved.appeared, [], "a shift alone")
        XCTAssertEqual(moved.disappeared, [])
        let pushed = scan([(14, 10, 24, 16, Self.navy), (12, 6, 22, 12, Self.red)])
        let raw = try XCTUnwrap(RestStateDifference.patches(from: before, to: pushed))
        XCTAssertEqual(raw.disappeared.count, 1, "the case: pixels turned back to board beside the new ones")
        let gone = try XCTUnwrap(raw.disappeared.first), new = try XCTUnwrap(raw.appeared.max { $0.area < $1.area })
        XCTAssertLessThan(gone.center.distance(to: new.center), 1.5 * Self.bagArea.squareRoot(), "the case: side by side")
        let difference = try XCTUnwrap(RestStateDifference(from: before, to: pushed))
        XCTAssertEqual(difference.appeared.count, 1, "\(raw)")
        XCTAssertGreaterThan(try XCTUnwrap(difference.appeared.first).area, 0.8 * Self.bagArea)
    }

    /// The same pile re-shaded with only a few new pixels beside it (19 changed pixels, under
    /// `pileLandingShare` of a bag): a bag going into the hole past it, not one on it. And a
    /// re-shaded patch with no new pixels at all is never a bag, however large.
    func testAPileStirredWithoutABagOnItIsNotNew() throws {
        let before = scan([(10, 10, 20, 16, Self.navy)])
        let few = scan([(18, 9, 20, 10, Self.navy), (11, 10, 20, 14, Self.navyReshaded), (10, 10, 11, 14, Self.navy),
                        (10, 14, 20, 16, Self.navy)])
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: few)).appeared, [])
        let reshadedOnly = scan([(10, 10, 20, 16, Self.navyReshaded)])
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: reshadedOnly)).appeared, [])
    }

    /// A bag seen on a pile at one rest state and gone at the next: of the pixels that changed
    /// when it came, the share back as before it came is all of them; had it stayed, none.
    func testPixelsBackAsBeforeABagCameSayItLeft() throws {
        let before = scan([(10, 10, 20, 16, Self.navy)])
        let last = scan([(15, 8, 20, 10, Self.navy), (11, 10, 20, 14, Self.navyReshaded), (10, 10, 11, 14, Self.navy),
                         (10, 14, 20, 16, Self.navy)])
        var pile = BagSighting(center: PlanePoint(15, 12), colour: RGBColour(r: 20, g: 30, b: 110), place: .onBoard, area: 60)
        pile.extentMin = PlanePoint(10, 8)
        pile.extentMax = PlanePoint(20, 16)
        XCTAssertEqual(try XCTUnwrap(RestStateDifference.revertedShare(of: pile, before: before, last: last, now: before)), 1, accuracy: 0.01)
        XCTAssertEqual(try XCTUnwrap(RestStateDifference.revertedShare(of: pile, before: before, last: last, now: last)), 0, accuracy: 0.01)
        // Nothing changed between the two rest states: nothing to say.
        XCTAssertNil(RestStateDifference.revertedShare(of: pile, before: before, last: before, now: before))
    }

    /// A dark bag of the top's own hue is told by the same rule everywhere it is asked about:
    /// its pixels changed since the top was bare (`changedShare`), and they are back when it
    /// leaves but not while it stays (`revertedShare`). By colour distance alone (19 units) none
    /// of its pixels changed, and a bag that stayed read as one gone.
    func testADarkBagOfTheTopsHueChangesItsPixelsForEveryRule() throws {
        let lightBlue: (UInt8, UInt8, UInt8) = (99, 122, 146), darkBlue: (UInt8, UInt8, UInt8) = (22, 45, 69)
        let bare = scan([], board: lightBlue)
        let withBag = scan([(10, 8, 20, 14, darkBlue)], board: lightBlue)
        var bag = BagSighting(center: PlanePoint(15, 11), colour: RGBColour(r: 22, g: 45, b: 69), place: .onBoard, area: 60)
        bag.extentMin = PlanePoint(10, 8)
        bag.extentMax = PlanePoint(20, 14)
        XCTAssertGreaterThan(try XCTUnwrap(RestStateDifference.changedShare(of: bag, from: bare, to: withBag)), 0.5)
        XCTAssertEqual(try XCTUnwrap(RestStateDifference.changedShare(of: bag, from: withBag, to: withBag)), 0)
        XCTAssertEqual(try XCTUnwrap(RestStateDifference.revertedShare(of: bag, before: bare, last: withBag, now: bare)), 1, accuracy: 0.01)
        XCTAssertLessThan(try XCTUnwrap(RestStateDifference.revertedShare(of: bag, before: bare, last: withBag, now: withBag)), 0.5)
    }

    /// A dark bag come down on a resting bag of another colour, part of it taken for ground:
    /// where it covers the old bag's colour it is new, and where its darkest pixels were lost
    /// the old bag's pixels read as gone, side by side and of a size, as a bag that shifted
    /// leaves them. Mostly over a bag of another colour, it is a new bag (held2-0006 throw 8: a
    /// navy bag on a yellow one on the ground was taken for that bag shifting, and the throw for
    /// one through the hole).
    func testABagOfAnotherColourOverOnePartlyLostIsNewNotAShift() throws {
        let before = scan([(10, 8, 20, 14, Self.red)])
        let after = scan([(14, 8, 20, 14, Self.navy)], unmasked: [(10, 8, 14, 14, Self.navy)])
        let raw = try XCTUnwrap(RestStateDifference.patches(from: before, to: after))
        XCTAssertEqual(raw.appeared.count, 1, "the case: the covered part reads as new")
        XCTAssertEqual(raw.disappeared.count, 1, "the case: the lost part reads as gone")
        let new = try XCTUnwrap(raw.appeared.first), gone = try XCTUnwrap(raw.disappeared.first)
        XCTAssertLessThan(new.area - gone.area, RestStateDifference.movedNetShare * Self.bagArea, "the case: of a size")
        XCTAssertEqual(new.overBagArea, new.area, accuracy: 0.5, "every new pixel was the red bag's")
        let difference = try XCTUnwrap(RestStateDifference(from: before, to: after))
        XCTAssertEqual(difference.appeared.count, 1)
        // The same bag shifted onto board is still a shift.
        let shifted = scan([(14, 8, 24, 14, Self.red)])
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: shifted)).appeared, [])
    }

    /// A small bag that comes to rest may show as two pieces, each short of a patch: side by
    /// side they are one new bag (held2-0018 throw 1: a navy bag on dark ground at 640×360, two
    /// pieces of about a third of a bag each, was never counted and the throw taken for one into
    /// the hole). One such piece alone, or two pieces far apart, are no bag.
    func testTwoPiecesOfABagSideBySideAreOneNewBag() throws {
        let before = scan([])
        // Two 4 × 3 pieces (0.2 of a bag each; a patch needs 0.3), 7 pixels apart.
        let pieces = scan([(10, 10, 14, 13, Self.navy), (17, 10, 21, 13, Self.navy)])
        let raw = try XCTUnwrap(RestStateDifference.patches(from: before, to: pieces))
        XCTAssertEqual(raw.appeared.count, 1, "\(raw.appeared)")
        XCTAssertEqual(try XCTUnwrap(raw.appeared.first).area, 24, accuracy: 0.5)
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: pieces)).appeared.count, 1)
        let one = scan([(10, 10, 14, 13, Self.navy)])
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: one)).appeared, [])
        let apart = scan([(2, 10, 6, 13, Self.navy), (40, 10, 44, 13, Self.navy)])
        XCTAssertEqual(try XCTUnwrap(RestStateDifference(from: before, to: apart)).appeared, [])
    }
}
