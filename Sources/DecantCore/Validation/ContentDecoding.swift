import DecantCompression

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes a body sent with a `Content-Encoding` (RFC 9110 §8.4): `gzip`, `x-gzip` and `deflate`.
///
/// `Content-Encoding` lists the codings the server applied, in the order it applied them, so they are decoded from
/// the last to the first (RFC 9110 §8.4). Coding names are case-insensitive; `identity` means no coding and empty
/// list elements are skipped. What each coding means (RFC 9110 §8.4.1):
/// - `gzip` and `x-gzip`: the gzip format (RFC 1952), CRC-32 and length verified. Concatenated gzip members are all
///   decoded, one after the other, as browsers and curl do.
/// - `deflate`: the zlib format (RFC 1950), Adler-32 verified. Some servers send raw DEFLATE data (RFC 1951) without
///   the zlib wrapper; as browsers do, a body whose first two bytes are not a valid zlib header is decoded as raw
///   DEFLATE.
/// - Anything else (`br`, `zstd`, `compress`, …) throws ``SerializationError/Code/unsupportedFeature`` before
///   anything is decoded.
///
/// The decoded response has the decoded body, no `Content-Encoding` field, and a `Content-Length` set to the decoded
/// size when it had one, so that later stages, the serializer and error messages see what was decoded. A response
/// without `Content-Encoding` (or with only `identity`) and an empty body (a `HEAD`, `204` or `304` response announces
/// the coding of a body it does not carry) pass through unchanged; checking for the field is the only cost.
///
/// HTTP clients usually decode the body themselves, and many keep the field (`URLSession` does, and so does
/// `curl --compressed`), so decoding again would fail. That is why there are two triggers:
/// - ``Trigger/whenSignatureMatches`` (``automatic``, in every chain's default preprocessors and so in every registry
///   call): decodes only when the body starts with the signature of the last coding listed (gzip's `1F 8B`, or a
///   valid zlib header for `deflate`), so an already-decoded body passes through unchanged, and so does a coding it
///   does not know.
/// - ``Trigger/always`` (`ContentDecoding()`): decodes whatever the field says, raw DEFLATE included, and rejects
///   unknown codings. Use it when the body is known to arrive as it was sent:
///
/// ```swift
/// var chain = ResponseChain(DataResponseSerializer())
/// chain.preprocessors = [BodySizeLimit.default, ContentDecoding()]
/// let data = try chain.serialize(response)   // the decoded body
///
/// // Before a registry, which runs its own default stages:
/// let value = try registry.serialize(try ContentDecoding().process(response))
/// ```
///
/// A chain built from a `ChainConfiguration` runs the automatic stage too; list `contentDecoding` in its
/// `preprocessors` to decode always. `limits.maxDecodedBytes` and `limits.maxExpansionRatio` set the limits of
/// either.
///
/// When a serializer then fails on a body that still looks encoded (gzip's signature without a `Content-Encoding`,
/// or a coding the stage passed through), the chain adds a sentence saying so to the error
/// (``encodingHint(for:)``).
///
/// Errors, each with the response as it came in (encoded body included) and a message naming the coding:
/// - ``SerializationError/Code/unsupportedFeature``: a coding other than the ones above, or a zlib stream that needs
///   a preset dictionary.
/// - ``SerializationError/Code/invalidBody``: the data is corrupt (a bad header, Huffman code or checksum), with
///   the ``SerializationError/offset`` in the bytes that coding was applied to (the body itself for the last coding
///   listed).
/// - ``SerializationError/Code/truncatedBody``: the data ends before its end marker or checksum.
/// - ``SerializationError/Code/limitExceeded``: decoding would produce more than ``maxDecodedBytes``, or more than
///   ``maxExpansionRatio`` times the encoded body.
public struct ContentDecoding: ResponseStage, Hashable {
    /// The largest body a decoding step may produce, in bytes: the final body, and with several codings each
    /// intermediate result. Values below zero behave like zero.
    public var maxDecodedBytes: Int
    /// When set, the decoded body may be at most this many times the size of the encoded body (each intermediate
    /// result too). `nil` (the default) checks only ``maxDecodedBytes``.
    ///
    /// One layer of DEFLATE expands at most about 1,032 times, so a ratio guard mainly catches stacked codings
    /// (`gzip, gzip`, …), whose ratios multiply; a low ratio such as 100 also stops a small body from costing the
    /// full ``maxDecodedBytes`` of memory and decoding time, at the risk of rejecting very repetitive genuine data.
    public var maxExpansionRatio: Int?

    /// When the stage decodes.
    public var trigger: Trigger

    /// When a ``ContentDecoding`` stage decodes a body that has a `Content-Encoding`.
    public enum Trigger: Sendable, Hashable {
        /// Whenever the field names a coding other than `identity`; unknown codings are errors.
        case always
        /// Only when the body starts with the signature of the last coding listed (gzip `1F 8B`, a zlib header for
        /// `deflate`); other bodies, and codings the stage does not know, pass through unchanged, because an HTTP
        /// client may have decoded them already and kept the field.
        case whenSignatureMatches
    }

    /// 64 MiB, the same as ``BodySizeLimit/default``.
    public static let defaultMaxDecodedBytes = 64 * 1024 * 1024

    /// The stage with the default limits that always decodes: 64 MiB decoded, no ratio guard.
    public static let `default` = ContentDecoding()

    /// The stage every chain runs by default (``ResponseChain/defaultPreprocessors``): decodes gzip and zlib bodies
    /// that still carry their signature, up to 64 MiB, and passes everything else through.
    public static let automatic = ContentDecoding(trigger: .whenSignatureMatches)

    /// The content codings decoded, lowercased; `identity` (no coding) is accepted too.
    public static let supportedCodings: [String] = ["gzip", "x-gzip", "deflate"]

    /// Creates the stage.
    ///
    /// - Parameters:
    ///   - maxDecodedBytes: The largest decoded body, in bytes; 64 MiB by default.
    ///   - maxExpansionRatio: The largest decoded size as a multiple of the encoded size; no limit by default.
    ///   - trigger: When to decode; ``Trigger/always`` by default.
    public init(
        maxDecodedBytes: Int = ContentDecoding.defaultMaxDecodedBytes, maxExpansionRatio: Int? = nil,
        trigger: Trigger = .always
    ) {
        self.maxDecodedBytes = maxDecodedBytes
        self.maxExpansionRatio = maxExpansionRatio
        self.trigger = trigger
    }

    /// Whether the response has no `Content-Encoding` (or an empty body): nothing to decode.
    public func passesUnchanged(_ response: Response) -> Bool {
        response.body.isEmpty || !response.headers.contains("Content-Encoding")
    }

    /// The response with its body decoded, `Content-Encoding` removed and `Content-Length` updated; the response
    /// itself when it has no coding to decode or an empty body.
    ///
    /// - Throws: ``SerializationError`` as described on the type, with the response as it came in.
    public func process(_ response: Response) throws(SerializationError) -> Response {
        let values = response.headers.values(for: "Content-Encoding")
        guard !values.isEmpty, !response.body.isEmpty else { return response }
        var codings: [String] = []
        for value in values {
            for element in value.split(separator: ",") {
                let coding = element.trimmingHTTPWhitespace()
                if coding.isEmpty || HTTPBytes.equalsIgnoringASCIICase(coding, "identity") { continue }
                codings.append(coding)
            }
        }
        guard !codings.isEmpty else { return response }
        if trigger == .whenSignatureMatches {
            guard codings.allSatisfy({ Coding($0) != nil }), let last = codings.last.flatMap(Coding.init),
                last.signatureMatches(response.body)
            else { return response }
        }
        let listed = codings.joined(separator: ", ")
        // Every coding is checked before any is decoded, so an unsupported one costs no decoding.
        for coding in codings where Coding(coding) == nil {
            throw SerializationError(
                code: .unsupportedFeature,
                message: "The response's Content-Encoding '\(Self.printable(coding))' (in '\(Self.printable(listed))') "
                    + "is not supported: ContentDecoding decodes gzip, x-gzip and deflate (RFC 9110 §8.4.1). Ask the "
                    + "server for a supported coding with `Accept-Encoding: gzip, deflate`, or decode the body before "
                    + "Decant.",
                mediaType: response.contentType, response: response)
        }

        var body = response.body
        for (index, name) in codings.enumerated().reversed() {
            let coding = Coding(name)!
            let limit = outputLimit(encodedSize: response.body.count)
            let step =
                codings.count == 1
                ? "The body's Content-Encoding '\(name)'"
                : "The body's Content-Encoding '\(name)' (coding \(index + 1) of \(codings.count) in '\(listed)')"
            do {
                body = try coding.decode(body, maxOutput: limit.bytes)
            } catch {
                throw failure(error, step: step, limit: limit, isFirstStep: index == codings.count - 1, response)
            }
        }

        var decoded = response
        decoded.body = body
        decoded.headers.remove("Content-Encoding")
        if decoded.headers.contains("Content-Length") {
            decoded.headers.set(String(body.count), for: "Content-Length")
        }
        return decoded
    }

    /// A sentence for the error of a serializer that failed on `response` when its body may still be encoded: it
    /// starts with gzip's or zlib's signature but no `Content-Encoding` says so, or the field names a coding that
    /// ``automatic`` passes through. `nil` otherwise.
    public static func encodingHint(for response: Response) -> String? {
        let codings = response.headers.contentCodings
        if let last = codings.last {
            let name = printable(last)
            guard let coding = Coding(last) else {
                return "The response says Content-Encoding '\(name)', which Decant does not decode: if the body is "
                    + "still encoded, send `Accept-Encoding: gzip, deflate` so the server uses a coding Decant decodes, "
                    + "or let the HTTP client decode it."
            }
            if case .deflate = coding, !coding.signatureMatches(response.body) {
                return "The response says Content-Encoding 'deflate' but the body has no zlib header: if it is raw "
                    + "DEFLATE, add `ContentDecoding()` (which always decodes) to the chain's preprocessors."
            }
            return nil
        }
        if Coding.gzip.signatureMatches(response.body) {
            return "The body starts with gzip's signature (1F 8B) but the response has no Content-Encoding, so it was "
                + "not decoded: fix the server's headers, or set `Content-Encoding: gzip` on the response and decode "
                + "it with `ContentDecoding()`."
        }
        return nil
    }

    // MARK: - Codings

    /// A supported content coding.
    enum Coding {
        case gzip
        case deflate

        /// The coding called `name` (ASCII case-insensitive), or `nil`.
        init?(_ name: String) {
            if HTTPBytes.equalsIgnoringASCIICase(name, "gzip") || HTTPBytes.equalsIgnoringASCIICase(name, "x-gzip") {
                self = .gzip
            } else if HTTPBytes.equalsIgnoringASCIICase(name, "deflate") {
                self = .deflate
            } else {
                return nil
            }
        }

        /// Decodes `input`, producing at most `maxOutput` bytes.
        func decode(_ input: Data, maxOutput: Int) throws(SerializationError) -> Data {
            try Inflate.decodedData(input, maxOutput: maxOutput) { (bytes, output) throws(InflateError) in
                switch self {
                case .gzip:
                    // Every member (RFC 1952 §2.2), then nothing but zero padding.
                    try Inflate.gzipMembers(bytes, into: &output)
                case .deflate:
                    if Self.hasZlibHeader(bytes) {
                        _ = try Inflate.zlib(bytes, into: &output)
                    } else {
                        _ = try Inflate.inflate(bytes, from: 0, into: &output)
                    }
                }
            }
        }

        /// Whether `body` starts the way this coding's data starts: gzip's magic bytes `1F 8B` (RFC 1952 §2.3.1), or
        /// a zlib header for `deflate` (raw DEFLATE has no signature).
        func signatureMatches(_ body: Data) -> Bool {
            body.withUnsafeBytes { bytes in
                switch self {
                case .gzip: return bytes.count >= 2 && bytes[0] == 0x1F && bytes[1] == 0x8B
                case .deflate: return Self.hasZlibHeader(bytes)
                }
            }
        }

        /// Whether `bytes` start with a valid zlib header (RFC 1950 §2.2): method 8 with a window of at most 32 KiB,
        /// and check bits that make the first two bytes a multiple of 31.
        static func hasZlibHeader(_ bytes: UnsafeRawBufferPointer) -> Bool {
            guard bytes.count >= 2 else { return false }
            let cmf = bytes[0]
            return cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(bytes[1])) % 31 == 0
        }
    }

    // MARK: - Limits and errors

    /// The output limit of one decoding step and which setting it comes from.
    struct Limit {
        var bytes: Int
        /// Whether ``maxExpansionRatio`` (rather than ``maxDecodedBytes``) sets it.
        var isRatio: Bool
    }

    func outputLimit(encodedSize: Int) -> Limit {
        let bytes = max(0, maxDecodedBytes)
        guard let ratio = maxExpansionRatio else { return Limit(bytes: bytes, isRatio: false) }
        let (product, overflow) = encodedSize.multipliedReportingOverflow(by: max(0, ratio))
        guard !overflow, product < bytes else { return Limit(bytes: bytes, isRatio: false) }
        return Limit(bytes: product, isRatio: true)
    }

    /// `error` from decoding one step, with a message that names the coding and how to fix the failure.
    func failure(
        _ error: SerializationError, step: String, limit: Limit, isFirstStep: Bool, _ response: Response
    ) -> SerializationError {
        var failure = error
        failure.mediaType = response.contentType
        failure.response = response
        switch error.code {
        case .limitExceeded:
            let encoded = response.body.count
            if limit.isRatio {
                failure.message =
                    "\(step) decodes to more than maxExpansionRatio (\(maxExpansionRatio ?? 0)) times the \(encoded)-"
                    + "byte encoded body (\(limit.bytes) bytes), which looks like a decompression bomb. Raise "
                    + "`ContentDecoding.maxExpansionRatio` (`limits.maxExpansionRatio` in a configuration), or set "
                    + "it to nil, if such bodies are expected."
            } else {
                failure.message =
                    "\(step) decodes to more than maxDecodedBytes (\(limit.bytes) bytes) from a \(encoded)-byte "
                    + "encoded body, which looks like a decompression bomb. Raise `ContentDecoding.maxDecodedBytes` "
                    + "(`limits.maxDecodedBytes` in a configuration) if such bodies are expected."
            }
        case .invalidBody, .truncatedBody:
            failure.message = "\(step) cannot be decoded. " + error.message
            if isFirstStep {
                failure.message +=
                    " If the HTTP client already decoded the body (URLSession and `curl --compressed` do, and keep "
                    + "the Content-Encoding field), leave ContentDecoding out of the chain."
            }
        default:
            failure.message = "\(step) cannot be decoded. " + error.message
        }
        return failure
    }

    /// `text` for a message, with control characters replaced and capped at 64 characters.
    static func printable(_ text: String) -> String {
        let scalars = text.unicodeScalars.prefix(64).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : Character($0) }
        return String(scalars) + (text.unicodeScalars.count > 64 ? "…" : "")
    }
}

extension Inflate {
    /// Runs `decode` over `input` into a buffer that grows up to `maxOutput` bytes, and returns what it wrote as
    /// `Data` (one copy out of the buffer); its error as a `SerializationError` with the same code, message and offset.
    static func decodedData(
        _ input: Data, maxOutput: Int,
        _ decode: (UnsafeRawBufferPointer, inout OutputBuffer) throws(InflateError) -> Void
    ) throws(SerializationError) -> Data {
        let result: Result<Data, InflateError> = input.withUnsafeBytes { bytes in
            do throws(InflateError) {
                var output = try OutputBuffer(growableUpTo: maxOutput, hint: bytes.count * 4)
                defer { output.deallocate() }
                try decode(bytes, &output)
                return .success(Data(bytes: output.base, count: output.count))
            } catch {
                return .failure(error)
            }
        }
        do {
            return try result.get()
        } catch {
            throw SerializationError(error)
        }
    }
}
