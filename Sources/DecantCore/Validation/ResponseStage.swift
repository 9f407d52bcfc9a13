#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One step a ``ResponseChain`` runs before its serializer: a check that throws, or a preprocessor that returns a
/// changed response.
public protocol ResponseStage: Sendable {
    /// Checks or rewrites `response`.
    ///
    /// - Returns: The response to pass on (unchanged for a pure check).
    /// - Throws: A ``SerializationError`` that says what failed and how to fix it.
    func process(_ response: Response) throws -> Response
}
