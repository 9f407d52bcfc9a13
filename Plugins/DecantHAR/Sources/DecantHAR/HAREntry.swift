import DecantCore
import DecantJSON

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// One element of a HAR file's `log.entries` turned into an `ArchivedResponse`: the rules
/// ``HARResponseSerializer`` documents, stated here once.
enum HAREntry {
    /// The response of the entry in `bytes` (its JSON text), at `index` in `log.entries` and `offset` in the file.
    static func response(
        _ bytes: UnsafeRawBufferPointer, index: Int, offset: Int, parser: JSONParser
    ) -> ArchivedResponse {
        let entry: JSONValue
        do {
            entry = try parser.parse(bytes)
        } catch {
            var error = error
            error.message = "Entry \(index) of log.entries, at byte \(offset), is not valid JSON: " + error.message
            error.offset = offset + (error.offset ?? 0)
            return ArchivedResponse(index: index, targetURI: nil, offset: offset, response: .failure(error))
        }
        let request = entry["request"]
        let targetURI = request?["url"]?.stringValue
        do throws(SerializationError) {
            let (response, truncation) = try read(entry, index: index, offset: offset, targetURI: targetURI)
            return ArchivedResponse(
                index: index, targetURI: targetURI, offset: offset, response: .success(response),
                truncation: truncation)
        } catch {
            return ArchivedResponse(index: index, targetURI: targetURI, offset: offset, response: .failure(error))
        }
    }

    /// The response and truncation of a parsed entry.
    private static func read(
        _ entry: JSONValue, index: Int, offset: Int, targetURI: String?
    ) throws(SerializationError) -> (Response, ArchivedResponse.Truncation?) {
        func malformed(_ problem: String) -> SerializationError {
            SerializationError(
                code: .malformedMessage,
                message:
                    "Entry \(index) of log.entries, at byte \(offset), \(problem). HAR 1.2 entries hold a request and "
                    + "a response object with a numeric status; fix or remove the entry.",
                offset: offset)
        }
        guard entry.kind == .object else { throw malformed("is not an object but \(describe(entry.kind))") }
        guard let har = entry["response"] else { throw malformed("has no member 'response'") }
        guard har.kind == .object else { throw malformed("has a 'response' that is not an object") }
        guard let statusValue = har["status"], !statusValue.isNull else {
            throw malformed("has no member 'response.status'")
        }
        guard let status = statusValue.intValue, (0...999).contains(status) else {
            throw malformed("has a 'response.status' that is not an integer from 0 to 999")
        }
        let content = har["content"]
        if let content, content.kind != .object, !content.isNull {
            throw malformed("has a 'response.content' that is not an object")
        }
        let textValue = content?["text"]
        if let textValue, textValue.kind != .string, !textValue.isNull {
            throw malformed("has a 'response.content.text' that is not a string")
        }
        let text = textValue?.stringValue
        let isBase64 = content?["encoding"]?.stringValue == "base64"
        var body = Data()
        if let text {
            if isBase64 {
                guard let decoded = Data(base64Encoded: text) else {
                    throw malformed("has a 'response.content.text' that is not valid base64 although its encoding is")
                }
                body = decoded
            } else {
                body = Data(text.utf8)
            }
        }
        var fields: [HTTPHeaderFields.Field] = []
        var sawContentType = false
        if let headers = har["headers"], !headers.isNull {
            guard headers.kind == .array else { throw malformed("has a 'response.headers' that is not an array") }
            var position = 0
            for header in headers.elements {
                guard let name = header["name"]?.stringValue, let value = header["value"]?.stringValue else {
                    throw malformed("has a 'response.headers[\(position)]' without a string name and value")
                }
                position += 1
                if equalsIgnoringCase(name, "content-encoding") { continue }
                if equalsIgnoringCase(name, "content-length") {
                    fields.append(HTTPHeaderFields.Field(name: name, value: String(body.count)))
                } else if equalsIgnoringCase(name, "content-type") {
                    sawContentType = true
                    fields.append(
                        HTTPHeaderFields.Field(name: name, value: isBase64 ? value : utf8ContentType(value)))
                } else {
                    fields.append(HTTPHeaderFields.Field(name: name, value: value))
                }
            }
        }
        if !sawContentType, let mimeType = content?["mimeType"]?.stringValue, MediaType(mimeType) != nil {
            fields.append(
                HTTPHeaderFields.Field(name: "Content-Type", value: isBase64 ? mimeType : utf8ContentType(mimeType)))
        }
        var response = Response(
            status: status, headers: HTTPHeaderFields(fields), body: body, url: targetURI.flatMap { URL(string: $0) },
            requestMethod: entry["request"]?["method"]?.stringValue)
        if let reason = har["statusText"]?.stringValue, !reason.isEmpty { response.reasonPhrase = reason }
        var truncation: ArchivedResponse.Truncation?
        if let stated = content?["size"]?.intValue, stated > 0, text == nil || body.count < stated {
            truncation = ArchivedResponse.Truncation(reason: "length", keptBytes: body.count, statedBytes: stated)
        }
        return (response, truncation)
    }

    /// `value` with its `charset` parameter, when it has one, set to `utf-8`: HAR text is Unicode, written as UTF-8.
    /// A value that does not parse as a media type is kept.
    private static func utf8ContentType(_ value: String) -> String {
        guard let mediaType = MediaType(value), mediaType.charset != nil else { return value }
        return mediaType.settingParameter("charset", to: "utf-8").description
    }

    private static func equalsIgnoringCase(_ name: String, _ lowercase: String) -> Bool {
        name.utf8.count == lowercase.utf8.count
            && zip(name.utf8, lowercase.utf8).allSatisfy { pair in
                (pair.0 >= 0x41 && pair.0 <= 0x5A ? pair.0 | 0x20 : pair.0) == pair.1
            }
    }

    private static func describe(_ kind: JSONValue.Kind) -> String {
        switch kind {
        case .null: "null"
        case .bool: "a boolean"
        case .number: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }
}
