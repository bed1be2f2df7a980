import XCTest
@testable import PitchsideNodes

/// A private cluster's ports lie outside the range the kernel hands to outgoing connections.
final class FreePortsTests: XCTestCase {
    func testBlockIsFreeAndOutsideTheEphemeralRange() {
        let ephemeral = FreePorts.ephemeralRange()
        for _ in 0..<20 {
            let base = FreePorts.block()
            let block = base..<(base + FreePorts.blockSize)
            XCTAssertFalse(block.overlaps(ephemeral.lowerBound..<(ephemeral.upperBound + 1)),
                           "block \(block) overlaps the ephemeral range \(ephemeral)")
            XCTAssertTrue(block.allSatisfy { FreePorts.isFree($0) })
            XCTAssertEqual(base % 100, 0)
        }
    }

    func testCandidateBasesLeaveRoomForAWholeBlock() {
        let bases = FreePorts.candidateRange()
        let ephemeral = FreePorts.ephemeralRange()
        XCTAssertTrue(bases.upperBound + FreePorts.blockSize <= ephemeral.lowerBound || bases.lowerBound > ephemeral.upperBound)
        XCTAssertLessThanOrEqual(bases.upperBound + FreePorts.blockSize, 65_536)
    }
}
