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

    /// Whether ``process(_:)`` would return `response` unchanged without throwing, decided without doing the work: a
    /// ``ResponseChain`` whose stages all pass a response unchanged calls its serializer directly. Answer `false`
    /// when unsure (the default): the stage then runs.
    func passesUnchanged(_ response: Response) -> Bool
}

extension ResponseStage {
    /// `false`: the stage runs.
    public func passesUnchanged(_ response: Response) -> Bool { false }
}
