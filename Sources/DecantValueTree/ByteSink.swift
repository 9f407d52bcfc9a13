/// A growable byte buffer for writers that produce a format's bytes one head at a time (CBOR, MessagePack): each
/// appended byte costs one compare and one store, where an `Array` also checks on every append that its storage is
/// unique.
///
/// It owns its storage (it is not copyable), grows by doubling, and frees the storage when it goes away.
///
/// ```swift
/// var sink = ByteSink()
/// sink.append(0x82)
/// sink.append(utf8: "ab")
/// let bytes = Array(sink.bytes(from: 0))   // [0x82, 0x61, 0x62]
/// ```
@frozen
public struct ByteSink: ~Copyable, @unchecked Sendable {
    /// The bytes; ``count`` of them are written.
    @usableFromInline var base: UnsafeMutablePointer<UInt8>
    /// How many bytes ``base`` has room for.
    @usableFromInline var capacity: Int
    /// How many bytes have been written.
    @usableFromInline var written = 0

    /// How many bytes have been written.
    @inlinable public var count: Int { written }

    /// Creates an empty buffer with room for `capacity` bytes (at least 16).
    @inlinable
    public init(capacity: Int = 1024) {
        self.capacity = max(capacity, 16)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Makes room for `extra` more bytes.
    @inlinable
    mutating func reserve(_ extra: Int) {
        let needed = written + extra
        guard needed > capacity else { return }
        grow(to: needed)
    }

    @usableFromInline
    mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let grown = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        grown.update(from: base, count: written)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    /// Appends one byte.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if written == capacity { grow(to: written + 1) }
        base[written] = byte
        written += 1
    }

    /// Appends `bytes`.
    @inlinable
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        reserve(bytes.count)
        (base + written).update(from: source.assumingMemoryBound(to: UInt8.self), count: bytes.count)
        written += bytes.count
    }

    /// Appends the UTF-8 bytes of `text`, copied in one go from a native string.
    @inlinable
    public mutating func append(utf8 text: String) {
        let copied: Void? = text.utf8.withContiguousStorageIfAvailable { append(UnsafeRawBufferPointer($0)) }
        guard copied == nil else { return }
        var contiguous = text
        contiguous.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    /// The bytes written from `start` on: valid until the next change to the buffer.
    @inlinable
    public func bytes(from start: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + start, count: count - start)
    }

    /// Replaces the bytes from `start` on with `replacement`, which must be no longer than they are (a writer that
    /// reorders what it wrote, such as CBOR's deterministic map order).
    @inlinable
    public mutating func overwrite(from start: Int, with replacement: [UInt8]) {
        let length = min(replacement.count, count - start)
        replacement.withUnsafeBufferPointer { source in
            guard let address = source.baseAddress, length > 0 else { return }
            (base + start).update(from: address, count: length)
        }
    }
}
