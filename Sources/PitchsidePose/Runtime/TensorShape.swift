/// The element type and dimensions of one model tensor, e.g. float32 [1, 256, 256, 3].
public struct TensorShape: Sendable, Equatable, CustomStringConvertible {
    /// LiteRT's element type code (1 = float32).
    public var elementType: Int32
    public var dimensions: [Int]

    public init(elementType: Int32 = TensorShape.float32, dimensions: [Int]) {
        self.elementType = elementType
        self.dimensions = dimensions
    }

    public static let float32: Int32 = 1

    /// Number of elements.
    public var count: Int { dimensions.reduce(1, *) }

    public var description: String {
        let type = elementType == TensorShape.float32 ? "f32" : "type\(elementType)"
        return "\(type)[\(dimensions.map(String.init).joined(separator: ","))]"
    }
}
