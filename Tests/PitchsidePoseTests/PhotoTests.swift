import PitchsideCore
import PitchsidePose
import XCTest

final class PhotoTests: XCTestCase {
    func testPrintPhotos() throws {
        let estimator = try TestImages.estimator()
        for name in ["messi5.jpg", "basketball1.png", "astronaut.png", "fruits.jpg"] {
            let image = try TestImages.photo(name)
            estimator.reset()
            let result = estimator.process(image)
            print(name, image.width, image.height, result.map { "presence \($0.presence) box \($0.personBox) region \($0.region)" } ?? "nil", estimator.statistics)
            if let r = result { for j in r.joints { print("  ", j.name.rawValue, j.position.x, j.position.y, j.confidence) } }
        }
    }
}
