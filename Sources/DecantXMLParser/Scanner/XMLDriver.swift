internal import DecantCore

#if canImport(FoundationEssentials)
    internal import FoundationEssentials
#else
    internal import Foundation
#endif

/// Runs the scanner over a body: encoding detection, transcoding, and turning failures into `SerializationError`s.
enum XMLDriver {
    /// Runs the scanner with the `String` event layer in front of `sink`.
    static func run<Sink: XMLEventSink>(
        _ data: Data, mediaType: MediaType?, options: XMLParsingOptions, sink: inout Sink
    ) throws(SerializationError) {
        var layer = XMLStringEventLayer(sink: sink)
        defer { sink = layer.sink }
        try run(data, mediaType: mediaType, options: options, spans: &layer)
    }

    /// Runs the scanner, reporting span events to `sink`.
    static func run<Sink: XMLSpanSink>(
        _ data: Data, mediaType: MediaType?, options: XMLParsingOptions, spans sink: inout Sink
    ) throws(SerializationError) {
        let input: XMLInputEncoding
        do {
            input = try XMLInputEncoding.detect(data, mediaType: mediaType)
        } catch {
            throw makeError(error, position: XMLPosition(line: 1, column: 1, offset: 0), mediaType: mediaType)
        }
        let check = { (label: String) in input.check(declared: label) }
        let result: Result<Void, SerializationError>
        if let encoding = input.encoding {
            let text: String
            do {
                text = try encoding.decode(data.dropFirst(input.skip), mode: .strict)
            } catch {
                var serialization = makeError(
                    XMLFailure(
                        kind: .invalidEncoding,
                        reason: "\(error.description.dropLast()) (the encoding came from "
                            + "\(describe(input.source))); correct the label or the bytes",
                        offset: input.skip + error.offset),
                    position: XMLPosition(line: 1, column: 1, offset: input.skip + error.offset),
                    mediaType: mediaType, showPosition: false)
                serialization.underlying = error
                throw serialization
            }
            var bytes = Array(text.utf8)
            if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
            result = bytes.withUnsafeBufferPointer { buffer in
                scan(buffer, start: 0, bodySize: data.count, options: options, mediaType: mediaType, check, &sink)
            }
        } else {
            if input.asciiOnly, let index = data.firstIndex(where: { $0 >= 0x80 }) {
                let offset = index - data.startIndex
                throw makeError(
                    XMLFailure(
                        kind: .invalidEncoding,
                        reason: "the body is declared US-ASCII but has the byte 0x"
                            + String(data[index], radix: 16, uppercase: true) + "; correct the encoding label",
                        offset: offset),
                    position: XMLPosition(line: 1, column: 1, offset: offset), mediaType: mediaType,
                    showPosition: false)
            }
            result = data.withUnsafeBytes { raw in
                scan(
                    raw.bindMemory(to: UInt8.self), start: input.skip, bodySize: data.count, options: options,
                    mediaType: mediaType, check, &sink)
            }
        }
        try result.get()
    }

    private static func describe(_ source: XMLInputEncoding.Source) -> String {
        switch source {
        case .byteOrderMark: "the byte order mark"
        case .utf16Pattern: "the first bytes"
        case .charsetParameter: "the charset parameter"
        case .declaration: "the XML declaration"
        case .defaultUTF8: "the default"
        }
    }

    private static func scan<Sink: XMLSpanSink>(
        _ buffer: UnsafeBufferPointer<UInt8>, start: Int, bodySize: Int, options: XMLParsingOptions,
        mediaType: MediaType?, _ check: @escaping (String) -> XMLFailure?, _ sink: inout Sink
    ) -> Result<Void, SerializationError> {
        // An empty buffer may have no base address; scan one byte of nothing instead.
        let empty: [UInt8] = [0]
        return empty.withUnsafeBufferPointer { placeholder in
            let base = buffer.baseAddress ?? placeholder.baseAddress!
            sink.begin(document: base, start: min(start, buffer.count), end: buffer.count)
            var scanner = XMLScanner(
                sink: sink, options: options, base: base, start: min(start, buffer.count), end: buffer.count,
                bodySize: bodySize, encodingCheck: check)
            defer {
                scanner.releaseInputs()
                // The expansion this document read counts against the response's budget, which capped it.
                try? scanner.responseBudget?.chargeExpansion(scanner.expandedBytes, for: "the XML document")
            }
            do {
                try scanner.parseDocument()
                sink = scanner.sink
                return .success(())
            } catch let failure as XMLFailure {
                sink = scanner.sink
                let position = scanner.position(ofMainOffset: failure.offset)
                return .failure(makeError(failure, position: position, mediaType: mediaType))
            } catch {
                sink = scanner.sink
                return .failure(wrap(error, mediaType: mediaType))
            }
        }
    }

    /// A `SerializationError` for a scanner failure.
    static func makeError(
        _ failure: XMLFailure, position: XMLPosition, mediaType: MediaType?, showPosition: Bool = true
    ) -> SerializationError {
        let code: SerializationError.Code
        let lead: String
        switch failure.kind {
        case .notWellFormed:
            code = .invalidBody
            lead = "XML is not well-formed"
        case .limitExceeded:
            code = .limitExceeded
            lead = "XML parsing stopped at a limit"
        case .invalidEncoding:
            code = .invalidEncoding
            lead = "The XML body's encoding is invalid"
        case .unsupportedFeature:
            code = .unsupportedFeature
            lead = "The XML body cannot be read"
        }
        let place = showPosition ? " at \(position)" : ""
        var reason = failure.reason
        if let last = reason.last, last != "." { reason += "." }
        return SerializationError(
            code: code, message: "\(lead)\(place): \(reason)", mediaType: mediaType, offset: position.offset,
            underlying: XMLParsingError(
                kind: failure.kind, position: position, reason: failure.reason, limitName: failure.limitName))
    }

    /// Wraps an error a handler, delegate or closure threw.
    static func wrap(_ error: any Error, mediaType: MediaType?) -> SerializationError {
        if let serialization = error as? SerializationError { return serialization }
        return SerializationError(
            code: .serializerFailed,
            message: "The XML event handler threw an error of type \(type(of: error)): \(error).",
            mediaType: mediaType, underlying: error)
    }
}
