import XCTest
@testable import PitchsideVision

final class BlobsTests: XCTestCase {
    /// Hysteresis: weak pixels joined to a strong one, even through other weak ones and
    /// diagonally, become strong; weak pixels alone are dropped; other values stay.
    func testWeakPixelsJoinedToAStrongOneGrowIntoItAndTheRestGo() {
        // 1 strong, 3 weak, 2 another kind (left as it is).
        var mask: [UInt8] = [
            1, 3, 0, 0, 0, 3,
            0, 0, 3, 0, 0, 3,
            0, 0, 0, 0, 0, 0,
            2, 3, 0, 3, 0, 0,
        ]
        Blobs.grow(&mask, width: 6, height: 4, from: 1, into: 3)
        XCTAssertEqual(mask, [
            1, 1, 0, 0, 0, 0,
            0, 0, 1, 0, 0, 0,
            0, 0, 0, 0, 0, 0,
            2, 0, 0, 0, 0, 0,
        ])
        XCTAssertEqual(Blobs.label(mask, width: 6, height: 4).map(\.count).sorted(), [1, 3])
    }
}
