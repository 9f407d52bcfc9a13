public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension TextEncoding {
    /// Whether the encoding can write text: every encoding but ``replacement``, which the standard gives no encoder
    /// (§14.1).
    public var hasEncoder: Bool { kind != .replacement }

    /// The standard's "get an output encoding" (§4.3): ``utf8`` for ``replacement``, ``utf16BE`` and ``utf16LE``,
    /// the encoding itself otherwise. It is what browsers encode forms and URLs with; ``encode(_:mode:)`` does not
    /// apply it, so that an HTTP body asked for in UTF-16 is written in UTF-16.
    public var outputEncoding: TextEncoding {
        switch kind {
        case .replacement, .utf16LE, .utf16BE: .utf8
        default: self
        }
    }

    /// Encodes `text` with this encoding's encoder (the standard's "encode" of §4.4, over the whole text and ending
    /// it, with error mode "fatal" or "html").
    ///
    /// - UTF-8 writes the text's UTF-8. UTF-16LE and UTF-16BE write its UTF-16 code units in that byte order; the
    ///   standard defines no UTF-16 encoders (it encodes forms in UTF-8 instead, see ``outputEncoding``), but an
    ///   HTTP body asked for in UTF-16 is written as asked. No byte order mark is written by any encoding.
    /// - The legacy encodings write what their index maps back, as the standard's encoders do: windows-1252 writes
    ///   `é` as E9, Shift_JIS writes `¥` as 5C, GBK writes `€` as 80, ISO-2022-JP ends in the ASCII state.
    /// - ``xUserDefined`` writes U+F780-U+F7FF as bytes 0x80-0xFF; ``isoLatin1`` (not WHATWG) writes U+0000-U+00FF
    ///   as the byte of the same value.
    ///
    /// ```swift
    /// let body = try TextEncoding.shiftJIS.encode("日本")                  // 93 FA 96 7B
    /// let page = try TextEncoding.windows1252.encode("a → b", mode: .html)  // "a &#8594; b"
    /// ```
    ///
    /// Encoding is linear in the length of the text; the reverse lookups of the legacy encodings are built once, on
    /// first use, from the same index tables the decoders read.
    ///
    /// - Parameters:
    ///   - text: The text.
    ///   - mode: What a character the encoding cannot represent becomes: ``TextEncodingMode/strict`` (the default)
    ///     throws, ``TextEncodingMode/html`` writes it as `&#NNNN;`.
    /// - Throws: `SerializationError` with code `encodingFailed` for the first character the encoding cannot
    ///   represent, in strict mode, naming it and its offset (in Unicode scalars) with a ``TextEncodingError`` as
    ///   `underlying`; with code `invalidEncoding` for ``replacement``, which has no encoder.
    public func encode(_ text: some StringProtocol, mode: TextEncodingMode = .strict) throws(SerializationError) -> Data
    {
        switch kind {
        case .utf8:
            return Data(text.utf8)
        case .utf16LE:
            return UTF16Encoder.encode(text, bigEndian: false)
        case .utf16BE:
            return UTF16Encoder.encode(text, bigEndian: true)
        case .replacement:
            throw SerializationError(
                code: .invalidEncoding,
                message: "The replacement encoding has no encoder: it stands for encodings browsers refuse to use "
                    + "(ISO-2022-KR, HZ-GB-2312, ...). Encode the text in UTF-8 instead.")
        default:
            break
        }
        let contiguous = text.utf8.withContiguousStorageIfAvailable { encodeLegacy(utf8: $0, mode: mode) }
        if let contiguous { return try contiguous.get() }
        return try Array(text.utf8).withUnsafeBufferPointer { encodeLegacy(utf8: $0, mode: mode) }.get()
    }

    /// Runs the legacy encoder of this encoding over `input`, well-formed UTF-8.
    private func encodeLegacy(
        utf8 input: UnsafeBufferPointer<UInt8>, mode: TextEncodingMode
    ) -> Result<Data, SerializationError> {
        switch kind {
        case .singleByte(let index):
            return SingleByteEncoder.encode(input, index: index, mode: mode, encoding: self)
        case .xUserDefined:
            return SingleByteEncoder.encodeXUserDefined(input, mode: mode, encoding: self)
        case .isoLatin1:
            return SingleByteEncoder.encodeISOLatin1(input, mode: mode, encoding: self)
        case .gb18030:
            return ChineseEncoders.encodeGB18030(input, gbk: self == .gbk, mode: mode, encoding: self)
        case .big5:
            return ChineseEncoders.encodeBig5(input, mode: mode, encoding: self)
        case .eucJP:
            return JapaneseEncoders.encodeEUCJP(input, mode: mode, encoding: self)
        case .iso2022JP:
            return JapaneseEncoders.encodeISO2022JP(input, mode: mode, encoding: self)
        case .shiftJIS:
            return JapaneseEncoders.encodeShiftJIS(input, mode: mode, encoding: self)
        case .eucKR:
            return KoreanEncoder.encodeEUCKR(input, mode: mode, encoding: self)
        case .utf8, .utf16LE, .utf16BE, .replacement:
            // Handled by encode(_:mode:) before the UTF-8 is taken.
            return .success(Data(input))
        }
    }
}
