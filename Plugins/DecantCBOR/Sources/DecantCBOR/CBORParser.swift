public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Decodes CBOR (RFC 8949) data items into ``CBORValue``s: one item (`application/cbor`) or a sequence of items
/// (`application/cbor-seq`, RFC 8742).
///
/// Every major type is supported, with definite and indefinite lengths (RFC 8949 §3.2), half-, single- and
/// double-precision floats (half precision decoded as in Appendix D), all simple values and tags. The bignums of
/// tags 2 and 3 (§3.4.3) become integers: ``CBORValue/unsignedInteger(_:)`` or ``CBORValue/negativeInteger(_:)``
/// when they fit, else ``CBORValue/bignum(negative:magnitude:)`` up to ``maxBignumBytes`` bytes of magnitude (larger
/// ones stay ``CBORValue/tag(_:_:)``). Other tags are kept as a tag number and content.
///
/// A body that is not well-formed (§5.3.1: truncated, reserved additional information 28-30, a break outside an
/// indefinite-length item, a chunk of the wrong type inside an indefinite-length string, a two-byte simple value
/// below 32) fails with `SerializationError.Code.invalidBody` and the byte ``SerializationError/offset`` of the
/// offending head; so do text strings that are not valid UTF-8 and duplicate map keys (unless
/// ``CBORParsingOptions/duplicateKeys`` is ``CBORParsingOptions/DuplicateKeyPolicy/lastWins``).
///
/// The parser is linear in the body's size, recursion-free (it keeps its own stack), and never allocates from a
/// declared length more than the remaining bytes could hold: a header claiming 2^60 elements fails at once.
///
/// ```swift
/// let value = try CBORParser().parse(Data([0xA1, 0x61, 0x61, 0x01]))   // {"a": 1}
/// value["a"]   // .unsignedInteger(1)
/// ```
public struct CBORParser: Sendable {
    /// The largest bignum magnitude (tags 2 and 3) turned into an integer, in bytes: 4,096 (9,865 decimal digits).
    /// Larger bignums stay tags, so that printing them in decimal (quadratic in their length) stays cheap.
    public static let maxBignumBytes = 4096

    /// The limits and the duplicate-key policy.
    public var options: CBORParsingOptions

    /// Creates a parser.
    public init(options: CBORParsingOptions = CBORParsingOptions()) {
        self.options = options
    }

    /// Decodes `data` as exactly one data item (`application/cbor`).
    ///
    /// - Throws: `SerializationError` with code `invalidBody` (with the byte offset) when the body is empty, not
    ///   well-formed or followed by extra bytes, or `limitExceeded` when it exceeds a limit of ``options``.
    public func parse(_ data: Data) throws(SerializationError) -> CBORValue {
        let items = try decode(data, sequence: false)
        guard let first = items.first else {
            throw SerializationError(
                code: .invalidBody, message: "The body is empty: a CBOR document holds exactly one data item.",
                offset: 0)
        }
        return first
    }

    /// Decodes `data` as a CBOR sequence (RFC 8742): zero or more data items, one after another.
    ///
    /// - Throws: `SerializationError` as ``parse(_:)`` does.
    public func parseSequence(_ data: Data) throws(SerializationError) -> [CBORValue] {
        try decode(data, sequence: true)
    }

    /// Checks `data` as exactly one data item (`application/cbor`), as ``parse(_:)`` does, and returns it as a
    /// ``CBORItem``: values are read from the body when asked for, so parsing allocates nothing per item.
    ///
    /// - Throws: `SerializationError` as ``parse(_:)`` does; `limitExceeded` for a body of 4 GiB or more.
    public func read(_ data: Data) throws(SerializationError) -> CBORItem {
        let tape = try tape(data, sequence: false)
        guard tape.count > 0 else {
            throw SerializationError(
                code: .invalidBody, message: "The body is empty: a CBOR document holds exactly one data item.",
                offset: 0)
        }
        return CBORItem(tape: tape, index: 0)
    }

    /// Checks `data` as a CBOR sequence (RFC 8742), as ``parseSequence(_:)`` does, and returns its items as
    /// ``CBORItem``s.
    ///
    /// - Throws: `SerializationError` as ``read(_:)`` does.
    public func readSequence(_ data: Data) throws(SerializationError) -> [CBORItem] {
        let tape = try tape(data, sequence: true)
        var items: [CBORItem] = []
        var index = 0
        while index < tape.count {
            items.append(CBORItem(tape: tape, index: index))
            index = Int(tape.entry(index).end)
        }
        return items
    }

    /// The largest body ``read(_:)`` accepts: offsets on its tape are 32-bit.
    static let maxTapeBodyBytes = Int(UInt32.max)

    private func tape(_ data: Data, sequence: Bool) throws(SerializationError) -> CBORTape {
        guard data.count <= Self.maxTapeBodyBytes else {
            throw SerializationError(
                code: .limitExceeded,
                message: "The body has \(data.count) bytes; CBORParser.read reads bodies below 4 GiB. Use parse "
                    + "for larger ones.", offset: 0)
        }
        do {
            return try data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress, !raw.isEmpty else {
                    return CBORTape(
                        body: data, entries: UnsafeBufferPointer(start: nil, count: 0), counts: [:],
                        replacements: [:], dropped: [])
                }
                var reader = CBORReader(bytes: base, count: raw.count, options: options, cachesTexts: false)
                defer { reader.release() }
                while reader.position < raw.count {
                    if !sequence && reader.entries.count > 0 {
                        throw extraBytes(at: reader.position)
                    }
                    try reader.countItems(1, at: reader.position)
                    try reader.readTapeItem()
                }
                return CBORTape(
                    body: data, entries: reader.entries.takeEntries(), counts: reader.counts,
                    replacements: reader.replacements, dropped: reader.dropped)
            }
        } catch let error as SerializationError {
            // The tape reader looks for repeated keys when a map closes, the tree reader as soon as a key's value
            // ends: where a body has more than one fault they can stop at different ones. The tree reader's error is
            // the one reported, so that read and parse fail alike (this costs a second pass only on failure).
            do {
                _ = try decode(data, sequence: sequence)
            } catch let treeError {
                throw treeError
            }
            throw error
        } catch {
            throw SerializationError(wrapping: error)
        }
    }

    private func extraBytes(at offset: Int) -> SerializationError {
        SerializationError(
            code: .invalidBody,
            message: "Extra bytes follow the data item at offset \(offset): an application/cbor body holds exactly "
                + "one item. Send one item, or label a sequence of items application/cbor-seq.",
            offset: offset)
    }

    private func decode(_ data: Data, sequence: Bool) throws(SerializationError) -> [CBORValue] {
        do {
            return try data.withUnsafeBytes { raw in
                guard let base = raw.baseAddress, !raw.isEmpty else { return [] }
                var reader = CBORReader(bytes: base, count: raw.count, options: options)
                defer { reader.release() }
                var items: [CBORValue] = []
                while reader.position < raw.count {
                    if !sequence && !items.isEmpty {
                        throw extraBytes(at: reader.position)
                    }
                    try reader.countItems(1, at: reader.position)
                    items.append(try reader.readItem())
                }
                return items
            }
        } catch let error as SerializationError {
            throw error
        } catch {
            throw SerializationError(wrapping: error)
        }
    }
}
