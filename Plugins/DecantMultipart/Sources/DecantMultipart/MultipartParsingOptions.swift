/// How ``MultipartResponseSerializer`` reads a body, and the limits that keep untrusted input cheap.
///
/// Every limit is checked before the memory it guards is allocated. Exceeding one fails the whole body with
/// `SerializationError.Code.limitExceeded`, and the message names the option to raise. The core's body size limit
/// applies to the whole response in front of these.
public struct MultipartParsingOptions: Sendable, Hashable {
    /// The default of ``maxParts``: 10,000.
    public static let defaultMaxParts = 10_000
    /// The default of ``maxPartHeaderBytes``: 16 KiB.
    public static let defaultMaxPartHeaderBytes = 16 * 1024
    /// The default of ``maxDepth``: 4.
    public static let defaultMaxDepth = 4

    /// The most body parts a response may hold, counted over every nesting level together. Default 10,000.
    public var maxParts: Int
    /// The most bytes of one part's header block (its fields and their line ends). Default 16 KiB.
    public var maxPartHeaderBytes: Int
    /// The deepest nesting of multipart bodies: 1 allows no multipart part inside the body, 4 (the default) allows
    /// three levels of nested `multipart/*` parts.
    public var maxDepth: Int
    /// Whether a part that its serializer rejects fails the whole body (with that part's error). Default `false`:
    /// the part keeps its error in ``MultipartPart/error`` and the other parts keep their values.
    public var failsOnPartError: Bool

    /// Creates options; every parameter has the default described on its property.
    public init(
        maxParts: Int = MultipartParsingOptions.defaultMaxParts,
        maxPartHeaderBytes: Int = MultipartParsingOptions.defaultMaxPartHeaderBytes,
        maxDepth: Int = MultipartParsingOptions.defaultMaxDepth,
        failsOnPartError: Bool = false
    ) {
        self.maxParts = maxParts
        self.maxPartHeaderBytes = maxPartHeaderBytes
        self.maxDepth = maxDepth
        self.failsOnPartError = failsOnPartError
    }
}
