public import DecantCore
public import DecantJSON
import DecantRawHTTP
public import Foundation

/// A change to a fixture's message that must not change its outcome, as NIO's decoder verifier drip-feeds bytes.
public struct Perturbation: Sendable {
    /// A short name for reports, such as `lowercaseHeaderNames`.
    public let name: String
    private let transform: @Sendable (Response, JSONValue) -> Data?

    /// Creates a perturbation from a function returning the perturbed raw message, or `nil` when it does not apply.
    public init(name: String, transform: @escaping @Sendable (Response, JSONValue) -> Data?) {
        self.name = name
        self.transform = transform
    }

    /// The perturbed raw message for `response`, or `nil` when the perturbation does not apply to it.
    public func apply(to response: Response, expectation: JSONValue) -> Data? { transform(response, expectation) }

    /// Every built-in perturbation.
    public static let all: [Perturbation] = [
        lowercaseHeaderNames, uppercaseHeaderNames, contentTypeSpacing, parameterOrder, charsetAdded,
        trailingWhitespace, chunkedBody,
    ]

    /// Header names in lowercase (HTTP/2 style).
    public static let lowercaseHeaderNames = Perturbation(name: "lowercaseHeaderNames") { response, _ in
        renamingHeaders(response) { $0.lowercased() }
    }

    /// Header names in uppercase.
    public static let uppercaseHeaderNames = Perturbation(name: "uppercaseHeaderNames") { response, _ in
        renamingHeaders(response) { $0.uppercased() }
    }

    /// `Content-Type` with an uppercase type and spaces around `;` (`APPLICATION/JSON ; charset=utf-8`).
    public static let contentTypeSpacing = Perturbation(name: "contentTypeSpacing") { response, _ in
        guard let mediaType = response.contentType else { return nil }
        let parameters = mediaType.parameters.map { parameter -> String in
            var value = ""
            var single = MediaTypeParameters()
            single.set(parameter.value, forName: parameter.name)
            value = single.description.dropFirst().description
            return value
        }
        let value = ([mediaType.essence.uppercased()] + parameters).joined(separator: " ; ")
        return replacingContentType(response, with: value)
    }

    /// The `Content-Type` parameters in reverse order (only when there are two or more).
    public static let parameterOrder = Perturbation(name: "parameterOrder") { response, _ in
        guard let mediaType = response.contentType, mediaType.parameters.count >= 2 else { return nil }
        var reversed = MediaTypeParameters()
        for parameter in mediaType.parameters.reversed() { reversed.set(parameter.value, forName: parameter.name) }
        return replacingContentType(response, with: mediaType.essence + reversed.description)
    }

    /// `charset=utf-8` added to a JSON `Content-Type` that has none, when the body is UTF-8 without a BOM.
    public static let charsetAdded = Perturbation(name: "charsetAdded") { response, _ in
        guard let mediaType = response.contentType, mediaType.isJSON, mediaType.charset == nil,
            !response.body.starts(with: [0xEF, 0xBB, 0xBF]), isUTF8(response.body),
            !response.body.contains(0)
        else { return nil }
        return replacingContentType(response, with: mediaType.settingParameter("charset", to: "utf-8").description)
    }

    /// `" \r\n"` appended to a non-empty UTF-8 JSON body (insignificant whitespace, RFC 8259 §2).
    public static let trailingWhitespace = Perturbation(name: "trailingWhitespace") { response, _ in
        // Only UTF-8 bodies: ASCII whitespace appended to UTF-16 or UTF-32 text would cut a code unit.
        guard response.contentType?.isJSON == true, !response.body.isEmpty, hasBody(response),
            !response.body.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }), !response.body.contains(0),
            isUTF8(response.body)
        else { return nil }
        return response.replacingBody(response.body + Data(" \r\n".utf8)).rawMessage
    }

    /// The body sent with `Transfer-Encoding: chunked`, split into three chunks.
    public static let chunkedBody = Perturbation(name: "chunkedBody") { response, _ in
        guard response.body.count >= 2, hasBody(response) else { return nil }
        var copy = response
        copy.headers.remove("Content-Length")
        copy.headers.set("chunked", for: "Transfer-Encoding")
        copy.body = Data()
        var message = copy.rawMessage
        // rawMessage rewrites chunked framing to Content-Length; write the head by hand instead.
        guard let headEnd = message.range(of: Data("\r\n\r\n".utf8)) else { return nil }
        message = Data(message[..<headEnd.lowerBound])
        var head = String(decoding: message, as: UTF8.self)
            .split(separator: "\r\n", omittingEmptySubsequences: false)
            .filter {
                !$0.lowercased().hasPrefix("content-length:") && !$0.lowercased().hasPrefix("transfer-encoding:")
            }
            .joined(separator: "\r\n")
        head += "\r\nTransfer-Encoding: chunked\r\n\r\n"
        var raw = Data(head.utf8)
        let body = response.body
        let cuts = [0, body.count / 3, 2 * body.count / 3, body.count]
        for index in 0..<3 where cuts[index + 1] > cuts[index] {
            let chunk = body[(body.startIndex + cuts[index])..<(body.startIndex + cuts[index + 1])]
            raw += Data((String(chunk.count, radix: 16) + "\r\n").utf8) + chunk + Data("\r\n".utf8)
        }
        raw += Data("0\r\n\r\n".utf8)
        return raw
    }

    /// Whether `body` is valid UTF-8. Decoding gives valid UTF-8 back byte for byte and
    /// turns anything invalid into U+FFFD, so the round trip is the test. (`String(validating:as:)` says the same but
    /// needs macOS 15 / iOS 18, above the package's minimums.)
    private static func isUTF8(_ body: Data) -> Bool {
        String(decoding: body, as: UTF8.self).utf8.elementsEqual(body)
    }

    private static func hasBody(_ response: Response) -> Bool {
        !(response.isHeadRequest || [204, 304].contains(response.status) || (100..<200).contains(response.status))
    }

    private static func renamingHeaders(_ response: Response, _ rename: (String) -> String) -> Data? {
        var copy = response
        copy.headers = HTTPHeaderFields(response.headers.map { .init(name: rename($0.name), value: $0.value) })
        guard copy.headers != response.headers else { return nil }
        return copy.rawMessage
    }

    private static func replacingContentType(_ response: Response, with value: String) -> Data? {
        let current = response.headers.firstValue(for: "Content-Type")
        guard current != value else { return nil }
        var copy = response
        copy.headers.set(value, for: "Content-Type")
        return copy.rawMessage
    }
}
