public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes `multipart/*` bodies (RFC 2046 §5.1, RFC 7578 form-data, RFC 9110 byteranges) into a ``MultipartBody``,
/// each part decoded by its own `Content-Type` through a registry of its own.
///
/// Its id is `multipart`. A registry is a value and cannot contain itself, so the registry for parts is given
/// explicitly (``partRegistry``); nested `multipart/*` parts are parsed by this serializer itself, up to
/// ``MultipartParsingOptions/maxDepth``.
///
/// Every part is decoded under one `DecodingBudget` (the one the caller bound with `DecodingBudget.withBudget`, or a
/// new one of `DecodingBudget.defaultMaxBytes`): each part's own limits bound that part, and the budget bounds what
/// all of them keep together (images, XML trees, transfer-decoded bytes). A part that the spent budget refuses fails
/// the whole body with `limitExceeded`.
///
/// Framing errors (no boundary parameter, no delimiter, no close delimiter) fail the whole body with
/// `SerializationError.Code.invalidBody` and the byte offset; limits fail it with `limitExceeded`. A part its
/// serializer rejects keeps the error in ``MultipartPart/error`` and the body still succeeds, unless
/// ``MultipartParsingOptions/failsOnPartError`` is set.
///
/// ```swift
/// let parts = SerializerRegistry.standard.installing(.data)
/// let registry = SerializerRegistry.standard.installing(.multipart(decodingPartsWith: parts))
/// let body = try registry.serialize(response, as: MultipartBody.self)
/// ```
public struct MultipartResponseSerializer: ResponseSerializer, FormatComponent {
    /// The `multipart` format.
    public static var format: MediaFormat { .multipart }

    /// The registry each part is decoded with, by the part's own media type.
    public var partRegistry: SerializerRegistry
    /// The limits and the part-error policy.
    public var options: MultipartParsingOptions
    /// The media ranges accepted; the format's media ranges unless set.
    public var mediaRanges: [MediaRange]

    /// Creates the serializer.
    ///
    /// - Parameters:
    ///   - partRegistry: The registry that decodes each part by its media type. Parts no serializer accepts keep
    ///     only their bytes; install `.data` to get every part as a value.
    ///   - options: The limits and the part-error policy.
    ///   - mediaRanges: The media ranges accepted.
    public init(
        decodingPartsWith partRegistry: SerializerRegistry,
        options: MultipartParsingOptions = MultipartParsingOptions(),
        mediaRanges: [MediaRange] = MediaFormat.multipart.mediaRanges
    ) {
        self.partRegistry = partRegistry
        self.options = options
        self.mediaRanges = mediaRanges
    }

    /// Decodes the body and each of its parts.
    ///
    /// - Throws: `SerializationError`: `invalidBody` for a missing or invalid boundary and for framing errors (with
    ///   the byte offset), `limitExceeded` naming the option, or a part's own error when
    ///   ``MultipartParsingOptions/failsOnPartError`` is set.
    public func serialize(_ response: Response) throws -> MultipartBody {
        let mediaType = response.contentType ?? MediaType(type: "multipart", subtype: "mixed")
        var partCount = 0
        // One budget for every part: the one bound by the caller, or a new default one.
        let budget = DecodingBudget.current ?? DecodingBudget()
        do {
            return try DecodingBudget.withBudget(budget) { () throws(SerializationError) in
                try parse(
                    response.body, mediaType: mediaType, base: 0, depth: 1, partCount: &partCount, budget: budget)
            }
        } catch {
            throw error.filling(response: response, mediaType: mediaType, serializerID: id)
        }
    }

    /// Parses `data` (the whole body, or a nested part's body at offset `base` of the response body).
    func parse(
        _ data: Data, mediaType: MediaType, base: Int, depth: Int, partCount: inout Int, budget: DecodingBudget
    ) throws(SerializationError) -> MultipartBody {
        let boundary = try Self.boundary(of: mediaType, offset: base)
        let dashBoundary = Array("--\(boundary)".utf8)
        let options = options
        var count = partCount
        let result = data.withUnsafeBytes { bytes in
            Result { () throws(SerializationError) in
                try MultipartFramer(
                    bytes: bytes, dashBoundary: dashBoundary, boundary: boundary, options: options, base: base,
                    mediaType: mediaType
                ).frame(partCount: &count)
            }
        }
        partCount = count
        let framing = try result.get()
        let start = data.startIndex
        func slice(_ range: Range<Int>) -> Data { data[(start + range.lowerBound)..<(start + range.upperBound)] }

        let isFormData = mediaType.subtype == "form-data"
        let isByteRanges = mediaType.subtype == "byteranges"
        // The `_charset_` field of a form (RFC 7578 §4.6) gives the charset of text parts that declare none.
        var formCharset: String? = nil
        var dispositions: [(name: String?, filename: String?)] = []
        dispositions.reserveCapacity(framing.parts.count)
        for raw in framing.parts {
            let disposition = Self.disposition(HTTPHeaderFields(raw.fields))
            dispositions.append(disposition)
            // A charset name is short: a long `_charset_` field is not one (and is not read into a string).
            if isFormData, formCharset == nil, disposition.name == "_charset_", raw.body.count <= 64 {
                let text = String(decoding: slice(raw.body), as: UTF8.self)
                let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
                if !trimmed.isEmpty { formCharset = trimmed }
            }
        }

        var parts: [MultipartPart] = []
        parts.reserveCapacity(framing.parts.count)
        for (index, raw) in framing.parts.enumerated() {
            let headers = HTTPHeaderFields(raw.fields)
            var contentType = headers.contentType ?? MediaType(type: "text", subtype: "plain")
            if isFormData, let formCharset, contentType.type == "text", contentType.charset == nil {
                contentType = contentType.settingParameter("charset", to: formCharset)
            }
            var part = MultipartPart(
                index: index, headers: headers, contentType: contentType, body: slice(raw.body),
                bodyOffset: base + raw.body.lowerBound, name: dispositions[index].name,
                filename: dispositions[index].filename)
            let label = Self.label(of: part)
            if let field = headers.firstValue(for: "Content-Range") {
                part.contentRange = MultipartContentRange(parsing: field)
            }
            if isByteRanges, part.contentRange == nil {
                let found = headers.firstValue(for: "Content-Range").map { "'\($0)'" } ?? "none"
                part.error = SerializationError(
                    code: .invalidBody,
                    message: label + "A part of a multipart/byteranges body needs a valid Content-Range "
                        + "(RFC 9110 §14.6) such as 'bytes 0-499/1234', but it has \(found).",
                    mediaType: contentType, serializerID: id, offset: 0)
            } else {
                try decode(&part, label: label, depth: depth, partCount: &partCount, budget: budget)
            }
            // The response's budget is spent: the parts after this one cannot be kept either, so the body fails
            // (with this part's refusal) rather than returning a body whose later parts all failed the same way.
            if budget.isExhausted, let error = part.error, error.code == .limitExceeded {
                throw SerializationError(
                    code: error.code, message: error.message, mediaType: mediaType, serializerID: id,
                    offset: part.bodyOffset, underlying: error)
            }
            if options.failsOnPartError, let error = part.error {
                throw SerializationError(
                    code: error.code, message: error.message, mediaType: mediaType, serializerID: id,
                    offset: part.bodyOffset, underlying: error)
            }
            parts.append(part)
        }
        return MultipartBody(
            mediaType: mediaType, boundary: boundary, preamble: framing.preamble.map(slice),
            epilogue: framing.epilogue.map(slice), parts: parts)
    }

    /// Undoes the part's transfer encoding and decodes its value: nested multipart bodies here, everything else
    /// through ``partRegistry``. Part failures are stored in the part; limits are thrown.
    private func decode(
        _ part: inout MultipartPart, label: String, depth: Int, partCount: inout Int, budget: DecodingBudget
    ) throws(SerializationError) {
        let encoding = part.headers.firstValue(for: "Content-Transfer-Encoding")?
            .trimmingCharacters(in: .whitespaces).lowercased()
        switch encoding {
        case nil, "7bit", "8bit", "binary": break
        case "base64":
            do {
                part.body = try TransferEncoding.base64(part.body)
            } catch {
                part.error = SerializationError(
                    code: .invalidBody, message: label + error.message, mediaType: part.contentType,
                    serializerID: id, offset: error.offset)
                return
            }
            try budget.charge(part.body.count, for: label + "the part's base64-decoded bytes")
        case "quoted-printable":
            part.body = TransferEncoding.quotedPrintable(part.body)
            try budget.charge(part.body.count, for: label + "the part's quoted-printable-decoded bytes")
        case let other?:
            part.error = SerializationError(
                code: .unsupportedFeature,
                message: label + "The Content-Transfer-Encoding '\(other)' is not supported. Send the part as "
                    + "7bit, 8bit, binary, base64 or quoted-printable.",
                mediaType: part.contentType, serializerID: id)
            return
        }

        if part.contentType.type == "multipart" {
            guard depth < options.maxDepth else {
                throw SerializationError(
                    code: .limitExceeded,
                    message: "The multipart body nests multipart parts more than \(options.maxDepth) levels deep, "
                        + "the limit of the option 'maxDepth'. Raise maxDepth to accept it.",
                    serializerID: id, offset: part.bodyOffset)
            }
            do {
                part.value = try parse(
                    part.body, mediaType: part.contentType, base: part.bodyOffset,
                    depth: depth + 1, partCount: &partCount, budget: budget)
                part.serializerID = id
            } catch  where error.code == .limitExceeded {
                throw error
            } catch {
                var error = error
                error.message = label + error.message
                // Like every part error's, the offset counts from the start of the part's (decoded) body.
                error.offset = error.offset.map { $0 - part.bodyOffset }
                part.error = error
            }
            return
        }

        // The serializer the registry chooses for the part's media type gets the part's bytes as they are: the
        // registry's response stages (status, empty body, size, content coding) are about HTTP responses, not parts.
        guard let serializer = partRegistry.serializer(for: part.contentType) else { return }
        var headers = part.headers
        headers.remove("Content-Length")
        headers.remove("Content-Transfer-Encoding")
        if headers.contentType != part.contentType { headers.set(part.contentType.description, for: "Content-Type") }
        do {
            part.value = try serializer.serializeReportingErrors(
                Response(status: 200, headers: headers, body: part.body))
            part.serializerID = serializer.id
        } catch {
            var error = error
            error.message = label + error.message
            part.error = error
        }
    }

    /// `Part 3 (index 2, name "photo"): `, the prefix of a part's error messages.
    static func label(of part: MultipartPart) -> String {
        var text = "Part \(part.index + 1) (index \(part.index)"
        if let name = part.name { text += ", name \"\(name)\"" }
        return text + "): "
    }

    /// The `name` and file name of a part's `Content-Disposition`; `filename*` wins over `filename`.
    static func disposition(_ headers: HTTPHeaderFields) -> (name: String?, filename: String?) {
        guard let value = headers.firstValue(for: "Content-Disposition") else { return (nil, nil) }
        let parameters = HeaderSyntax.disposition(value).parameters
        let name = parameters.first { $0.name == "name" }?.value
        let extended = parameters.first { $0.name == "filename*" }.flatMap { HeaderSyntax.extendedValue($0.value) }
        return (name, extended ?? parameters.first { $0.name == "filename" }?.value)
    }

    /// The `boundary` parameter of `mediaType`, checked against RFC 2046 §5.1.1
    /// (``MultipartWriter/isValidBoundary(_:)``, the one statement of the rule for reading and writing).
    static func boundary(of mediaType: MediaType, offset: Int) throws(SerializationError) -> String {
        guard let boundary = mediaType.parameters["boundary"] else {
            throw SerializationError(
                code: .invalidBody,
                message: "The media type \(mediaType.essence) has no boundary parameter, so its parts cannot be "
                    + "found. Send the boundary in the Content-Type, such as '\(mediaType.essence); boundary=xyz'.",
                mediaType: mediaType, serializerID: MediaFormat.multipart.id, offset: offset)
        }
        guard MultipartWriter.isValidBoundary(boundary) else {
            throw SerializationError(
                code: .invalidBody,
                message: "The boundary '\(boundary)' of \(mediaType.essence) is not valid: RFC 2046 §5.1.1 allows 1 "
                    + "to 70 letters, digits, spaces and '()+_,-./:=? (not ending with a space). Send a valid "
                    + "boundary.",
                mediaType: mediaType, serializerID: MediaFormat.multipart.id, offset: offset)
        }
        return boundary
    }
}

extension MediaFormat {
    /// Multipart bodies: id `multipart`; `multipart/mixed`, `alternative`, `related`, `form-data` and `byteranges`.
    public static let multipart = MediaFormat(
        id: "multipart",
        mediaRanges: ["mixed", "alternative", "related", "form-data", "byteranges"].map {
            MediaRange(.exact(type: "multipart", subtype: $0))
        },
        summary:
            "Splits multipart bodies (mixed, alternative, related, form-data, byteranges) into parts, each decoded by "
            + "its own media type.")
}
