/// A value decoded although some of its parts failed: a multipart body whose part a serializer rejected keeps that
/// part's error instead of failing the whole body. Such a value lists those errors here, in full (code, message,
/// offset, the part's response), so that callers and tools can report what failed and why, not only that it did.
public protocol PartFailureReporting {
    /// The errors of the parts that could not be decoded, in document order (nested parts included); empty when
    /// every part was decoded.
    var partFailures: [SerializationError] { get }
}
