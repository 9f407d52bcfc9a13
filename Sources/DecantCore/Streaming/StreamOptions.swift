/// How a stream of records is decoded: what happens to a bad record and how large one may be.
public struct StreamOptions: Sendable, Hashable {
    /// What happens to a record that cannot be decoded; ``RecordErrorPolicy/stop`` by default.
    public var errorPolicy: RecordErrorPolicy
    /// The largest record, in bytes of the body (framing included), that a reader buffers; 16 MiB by default.
    /// A larger record is an error of code ``SerializationError/Code/limitExceeded`` for that record, and the
    /// reader skips its bytes without keeping them.
    public var maxRecordBytes: Int

    /// The defaults: stop at the first bad record, records up to 16 MiB.
    public static let defaultMaxRecordBytes = 16 << 20

    /// Creates options.
    public init(errorPolicy: RecordErrorPolicy = .stop, maxRecordBytes: Int = StreamOptions.defaultMaxRecordBytes) {
        self.errorPolicy = errorPolicy
        self.maxRecordBytes = maxRecordBytes
    }
}
