import DecantCore
import Foundation
import Testing

@testable import DecantJSON

/// Foundation's `JSONEncoder` as the reference of `JSONValueEncoder`: the same value and options go to both, and the
/// texts must be equal byte for byte (with `.sortedKeys`, since `JSONEncoder`'s order is otherwise its dictionary's,
/// and `.withoutEscapingSlashes`, since Decant never escapes `/`).
enum EncodingOracle {
    /// A `JSONEncoder` with the strategies of `options` (iso8601 with fractional seconds through a `.custom`
    /// closure, since `JSONEncoder` has no such case), `.sortedKeys` and `.withoutEscapingSlashes` added.
    static func foundationEncoder(_ options: EncodingOptions) -> JSONEncoder {
        let encoder = JSONEncoder()
        switch options.keyEncodingStrategy {
        case nil, .useDefaultKeys?: encoder.keyEncodingStrategy = .useDefaultKeys
        case .convertToSnakeCase?: encoder.keyEncodingStrategy = .convertToSnakeCase
        case .custom(let closure)?: encoder.keyEncodingStrategy = .custom(closure)
        }
        switch options.dateEncodingStrategy {
        case nil, .deferredToDate?: encoder.dateEncodingStrategy = .deferredToDate
        case .secondsSince1970?: encoder.dateEncodingStrategy = .secondsSince1970
        case .millisecondsSince1970?: encoder.dateEncodingStrategy = .millisecondsSince1970
        case .iso8601?: encoder.dateEncodingStrategy = .iso8601
        case .iso8601WithFractionalSeconds?:
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
            }
        case .custom(let closure)?: encoder.dateEncodingStrategy = .custom(closure)
        }
        switch options.dataEncodingStrategy {
        case nil, .base64?: encoder.dataEncodingStrategy = .base64
        case .deferredToData?: encoder.dataEncodingStrategy = .deferredToData
        case .custom(let closure)?: encoder.dataEncodingStrategy = .custom(closure)
        }
        switch options.nonConformingFloatEncodingStrategy {
        case nil, .throw?: encoder.nonConformingFloatEncodingStrategy = .throw
        case .convertToString(let positive, let negative, let nan)?:
            encoder.nonConformingFloatEncodingStrategy = .convertToString(
                positiveInfinity: positive, negativeInfinity: negative, nan: nan)
        }
        var formatting: JSONEncoder.OutputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if options.outputFormatting?.contains(.prettyPrinted) == true { formatting.insert(.prettyPrinted) }
        encoder.outputFormatting = formatting
        for (key, value) in options.userInfo { encoder.userInfo[key] = value }
        return encoder
    }

    /// Decant's text with `options` plus `.sortedKeys`.
    static func decant<T: Encodable>(_ value: T, _ options: EncodingOptions = EncodingOptions()) throws -> String {
        var options = options
        options.outputFormatting = (options.outputFormatting ?? []).union(.sortedKeys)
        return String(decoding: try JSONValueEncoder(options: options).encode(value), as: UTF8.self)
    }

    /// Foundation's text with `options` plus `.sortedKeys` and `.withoutEscapingSlashes`.
    static func foundation<T: Encodable>(_ value: T, _ options: EncodingOptions = EncodingOptions()) throws -> String {
        String(decoding: try foundationEncoder(options).encode(value), as: UTF8.self)
    }

    /// Expects both encoders to write the same text, or both to fail.
    static func expectSame<T: Encodable>(
        _ value: T, _ options: EncodingOptions = EncodingOptions(), sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let ours = Result { try decant(value, options) }
        let theirs = Result { try foundation(value, options) }
        switch (ours, theirs) {
        case (.success(let a), .success(let b)):
            #expect(a == b, sourceLocation: sourceLocation)
        case (.failure, .failure):
            break
        case (.success(let a), .failure(let error)):
            Issue.record("Decant wrote \(a); JSONEncoder threw \(error)", sourceLocation: sourceLocation)
        case (.failure(let error), .success(let b)):
            Issue.record("Decant threw \(error); JSONEncoder wrote \(b)", sourceLocation: sourceLocation)
        }
    }

    /// Foundation's pretty-printed text with the layout differences Decant makes on purpose undone: `" : "` after
    /// keys becomes `": "`, and an empty container's inner blank line goes (`[\n\n  ]` becomes `[]`). For texts whose
    /// strings contain neither `" : "` nor new lines.
    static func foundationPrettyInDecantLayout(_ text: String) -> String {
        var result = text.replacingOccurrences(of: "\" : ", with: "\": ")
        for closer in ["]", "}"] {
            let opener = closer == "]" ? "[" : "{"
            while let range = result.range(
                of: "\\\(opener)\\n\\n *\\\(closer)", options: .regularExpression)
            {
                result.replaceSubrange(range, with: opener + closer)
            }
        }
        return result
    }
}
