public import DecantCore

extension Response {
    /// Limits that bound the memory and work of ``Response/init(raw:requestMethod:url:limits:)``.
    ///
    /// Exceeding any of them throws a ``SerializationError`` with code ``SerializationError/Code/limitExceeded``.
    /// Negative values behave like zero.
    public struct RawMessageLimits: Sendable, Hashable {
        /// The most bytes the head may take: everything before the body (leading empty lines, the status lines and
        /// header sections of every interim response, the final status line, its header fields and the empty line
        /// that ends them). Also bounds each chunk-size line and the trailer section of a chunked body separately.
        public var maxHeaderBytes: Int
        /// The most header fields one header section (or the trailer section) may hold; an obsolete line folding
        /// continues its field and does not count.
        public var maxHeaderFields: Int
        /// The most body bytes, after the chunked transfer coding was removed.
        public var maxBodyBytes: Int

        /// Creates limits; the defaults are 64 KiB of head, 256 fields and 256 MiB of body.
        public init(
            maxHeaderBytes: Int = 64 * 1024,
            maxHeaderFields: Int = 256,
            maxBodyBytes: Int = 256 * 1024 * 1024
        ) {
            self.maxHeaderBytes = maxHeaderBytes
            self.maxHeaderFields = maxHeaderFields
            self.maxBodyBytes = maxBodyBytes
        }

        /// 64 KiB of head, 256 fields, 256 MiB of body.
        public static let `default` = RawMessageLimits()
    }
}
