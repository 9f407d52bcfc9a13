/// The output of the decoder: a manually managed buffer with eight bytes of slack for word-sized copies.
///
/// `package` (with its initialisers, ``base``, ``count`` and ``deallocate()``) for the PNG and TIFF decoders, which
/// read what they inflate in place; nothing outside this package sees it.
package struct OutputBuffer {
    /// The first byte; valid until ``deallocate()``.
    package internal(set) var base: UnsafeMutablePointer<UInt8>
    /// Bytes allocated, excluding the slack.
    var capacity: Int
    /// Bytes written so far.
    package internal(set) var count = 0
    let limit: Int
    let growable: Bool
    /// Whether ``deallocate()`` frees the bytes (false for memory the caller lent).
    let owned: Bool

    /// Bytes past the end that word-sized copies may write.
    package static let slack = 16

    /// A buffer that grows up to `limit` bytes, starting at `hint` bytes (at most 64 MiB, at least 1 KiB).
    package init(growableUpTo limit: Int, hint: Int) throws(InflateError) {
        self.limit = max(0, limit)
        growable = true
        owned = true
        capacity = min(self.limit, max(1024, min(hint, 64 << 20)))
        base = .allocate(capacity: capacity + OutputBuffer.slack)
    }

    /// A buffer of exactly `size` bytes, for callers that know the decompressed size (PNG).
    package init(exactly size: Int) {
        limit = size
        growable = false
        owned = true
        capacity = size
        base = .allocate(capacity: size + OutputBuffer.slack)
    }

    /// A buffer of exactly `size` bytes at `base`, memory the caller owns, which must have ``slack`` more writable
    /// bytes after those `size` (their contents are overwritten). ``deallocate()`` leaves it alone.
    package init(lending base: UnsafeMutablePointer<UInt8>, size: Int) {
        self.base = base
        limit = size
        growable = false
        owned = false
        capacity = size
    }

    /// Frees the bytes; the buffer must not be used afterwards.
    package func deallocate() {
        if owned { base.deallocate() }
    }

    func makeArray() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { buffer.baseAddress!.update(from: base, count: count) }
            initialized = count
        }
    }

    /// Makes room for `needed` more bytes, or throws when that would pass the limit.
    mutating func reserve(_ needed: Int) throws(InflateError) {
        let required = count + needed
        guard required <= limit else {
            if growable { throw Inflate.limit(limit) }
            throw InflateError(
                code: .invalidBody,
                message: "The compressed data holds more than the \(limit) bytes expected; the data is corrupt.")
        }
        guard required > capacity else { return }
        let newCapacity = min(limit, max(required, capacity * 2))
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity + OutputBuffer.slack)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
