#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Removes a UTF-8 byte order mark. UTF-16 and UTF-32 marks are left for the charset pipeline, which needs them to
/// know the encoding.
public struct ByteOrderMarkRemoval: ResponseStage, Hashable {
    /// Creates the stage.
    public init() {}

    /// The body without a leading `EF BB BF`.
    public func process(_ response: Response) throws -> Response {
        guard response.body.starts(with: [0xEF, 0xBB, 0xBF]) else { return response }
        return response.replacingBody(Data(response.body.dropFirst(3)))
    }
}
