import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns what a `Decodable` initializer threw into a `SerializationError` with the coding path, the byte offset
/// of the offending value and a message that says how to fix it.
enum JSONDecodingFailure {
    static let iso8601Description = "Expected date string to be ISO8601-formatted."
    static let iso8601FractionalDescription = "Expected date string to be ISO8601-formatted with fractional seconds."
    static let base64Description = "Encountered Data is not valid Base64."
    static let urlDescription = "Invalid URL string."

    static func serializationError(
        for error: any Error, in decoder: TapeDecoder, source: Data?
    ) -> SerializationError {
        if let error = error as? SerializationError { return error.filling(serializerID: "json") }
        guard let decodingError = error as? DecodingError else {
            let (path, index) = decoder.foreignFailure ?? (decoder.path, decoder.root)
            let keys = path.map(\.codingKey)
            let offset = source.flatMap { decoder.sourceOffset(of: index, in: $0) }
            return SerializationError(
                code: .decodingFailed,
                message: "Decoding failed at \(place(keys, offset)): an init(from:) threw \(type(of: error)): "
                    + "\(error). Check the value there, or the initializer that rejects it.",
                serializerID: "json", offset: offset, codingPath: strings(keys), underlying: error)
        }
        let context: DecodingError.Context
        switch decodingError {
        case .typeMismatch(_, let found), .valueNotFound(_, let found), .keyNotFound(_, let found),
            .dataCorrupted(let found):
            context = found
        @unknown default:
            context = DecodingError.Context(codingPath: [], debugDescription: "\(decodingError)")
        }
        let index = decoder.resolve(context.codingPath)
        let offset = source.flatMap { decoder.sourceOffset(of: index, in: $0) }
        let message = describe(decodingError, context: context, index: index, offset: offset, decoder: decoder)
        return SerializationError(
            code: .decodingFailed, message: message, serializerID: "json", offset: offset,
            codingPath: strings(context.codingPath), underlying: decodingError)
    }

    // MARK: - Messages

    private static func describe(
        _ error: DecodingError, context: DecodingError.Context, index: Int, offset: Int?, decoder: TapeDecoder
    ) -> String {
        let path = context.codingPath
        let found = decoder.valueDescription(index)
        switch error {
        case .typeMismatch(let type, _):
            return "Expected \(name(type)) at \(place(path, offset)) but found \(found). "
                + mismatchAdvice(type, index: index, decoder: decoder)
        case .valueNotFound(let type, _):
            if context.debugDescription.contains("at end") {
                return "Expected \(name(type)) at \(place(path, offset)) but the array there has only "
                    + "\(decoder.storage.count(of: index)) elements. Check the array's length, or read optional "
                    + "elements with decodeIfPresent."
            }
            let optional = type == [String: Any].self || type == [Any].self ? "" : " (\(type)?)"
            return "Expected \(name(type)) at \(place(path, offset)) but found null. Make the property optional"
                + "\(optional) if the value may be null."
        case .keyNotFound(let key, _):
            return "The key \"\(key.stringValue)\" is missing from the object at \(place(path, offset)). "
                + keyAdvice(key, object: index, decoder: decoder)
                + "Make the property optional if the key may be missing."
        case .dataCorrupted:
            if context.debugDescription.hasPrefix("Parsed JSON number") {
                return "The value at \(place(path, offset)) is invalid: \(context.debugDescription) "
                    + numberAdvice(context.debugDescription, index: index, decoder: decoder)
            }
            return "The value at \(place(path, offset)) is invalid: \(context.debugDescription) Found \(found). "
                + corruptionAdvice(context.debugDescription)
        @unknown default:
            return "Decoding failed at \(place(path, offset)): \(context.debugDescription)"
        }
    }

    /// "user.addresses[2].zip (byte 1234)", or "the top level".
    static func place(_ path: [any CodingKey], _ offset: Int?) -> String {
        var text = ""
        for key in path {
            if let index = arrayIndex(key) {
                text += "[\(index)]"
            } else {
                if !text.isEmpty { text += "." }
                text += key.stringValue
            }
        }
        if text.isEmpty { text = "the top level" }
        if let offset { text += " (byte \(offset))" }
        return text
    }

    /// The coding path as strings: keys, and array indices as their numbers ("2").
    static func strings(_ path: [any CodingKey]) -> [String] {
        path.map { key in arrayIndex(key).map(String.init) ?? key.stringValue }
    }

    /// The index of an array element's key (`Index 2`), or `nil` for a member's key.
    static func arrayIndex(_ key: any CodingKey) -> Int? {
        if let key = key as? JSONIndexKey { return key.index }
        guard let index = key.intValue, key.stringValue == "Index \(index)" else { return nil }
        return index
    }

    private static func name(_ type: Any.Type) -> String {
        if type == [String: Any].self { return "an object" }
        if type == [Any].self { return "an array" }
        if type == Never.self { return "a value" }
        return String(describing: type)
    }

    private static func mismatchAdvice(_ type: Any.Type, index: Int, decoder: TapeDecoder) -> String {
        let kind = decoder.kind(index)
        let numeric =
            type is any BinaryInteger.Type || type is any BinaryFloatingPoint.Type || type == Decimal.self
        if kind == Tape.stringKind && (type == Double.self || type == Float.self) {
            let text = decoder.string(at: index).lowercased()
            if ["nan", "inf", "-inf", "infinity", "-infinity", "+infinity"].contains(text) {
                return "To read infinities and NaN from strings, set nonConformingFloatDecodingStrategy to "
                    + ".convertFromString(positiveInfinity:negativeInfinity:nan:) with the strings this API sends."
            }
        }
        if kind == Tape.stringKind && (numeric || type == Bool.self) {
            return "Decode the property as String and convert it (in init(from:)), or have the API send a "
                + (numeric ? "number." : "boolean.")
        }
        if type == String.self && (kind == Tape.integerKind || kind == Tape.numberKind) {
            return "Decode the property as a number (Int, Double or Decimal), or accept both forms in init(from:)."
        }
        if kind == Tape.arrayKind && type == [String: Any].self {
            return "An array decodes as [Element]: change the property's type to an array of it."
        }
        return "Change the property's type to match the JSON, or convert the value in init(from:)."
    }

    private static func keyAdvice(_ key: any CodingKey, object: Int, decoder: TapeDecoder) -> String {
        guard decoder.kind(object) == Tape.objectKind else { return "" }
        let raw = decoder.rawKeys(ofObject: object)
        guard !raw.isEmpty else { return "The object is empty. " }
        var advice = "The object's keys are "
        advice += raw.prefix(8).map { "\"\($0)\"" }.joined(separator: ", ")
        advice += raw.count > 8 ? " and \(raw.count - 8) more. " : ". "
        let wanted = key.stringValue
        if decoder.options.keyMode == .useDefaultKeys,
            let snake = raw.first(where: { $0.contains("_") && SnakeCase.convert($0) == wanted })
        {
            advice +=
                "The JSON has \"\(snake)\": set keyDecodingStrategy to .convertFromSnakeCase (for a registry or "
                + "URLSession call, pass options: DecodingOptions(keyDecodingStrategy: .convertFromSnakeCase)). "
        } else if let nearest = EditDistance.nearest(to: wanted, in: decoder.keys(ofObject: object)) {
            advice += "Did you mean \"\(nearest)\"? "
        }
        return advice
    }

    private static func numberAdvice(_ description: String, index: Int, decoder: TapeDecoder) -> String {
        if description.hasSuffix(" Double.") || description.hasSuffix(" Float.") {
            return "It is beyond the type's range (or rounds to zero): decode it as Decimal, or as Double if it is a "
                + "Float."
        }
        if decoder.kind(index) == Tape.numberKind && DecimalParts(decoder.span(index)).exponent < 0 {
            return "The number has a fraction: decode it as Double or Decimal, or round it in init(from:)."
        }
        return "Decode it as a wider type (Int64, UInt64, Double or Decimal)."
    }

    private static func corruptionAdvice(_ description: String) -> String {
        switch description {
        case base64Description:
            return "Send Base64 (RFC 4648 §4: padded, without line breaks), or set dataDecodingStrategy to match "
                + "the encoding."
        case iso8601Description, iso8601FractionalDescription:
            return "Send an ISO 8601 date-time such as 2024-05-01T12:00:00Z, or set dateDecodingStrategy to match "
                + "the format (.custom for others)."
        case urlDescription:
            return "Send a valid URL, or decode the property as String."
        default:
            return "Check the value, or the init(from:) that rejects it."
        }
    }
}

extension TapeDecoder {
    /// The tape index of the value at the end of `path` from the root, or of the deepest value on the way that
    /// exists (the object of a missing key, the array of an index past its end).
    func resolve(_ path: [any CodingKey]) -> Int {
        var current = root
        for (depth, key) in path.enumerated() {
            switch kind(current) {
            case Tape.objectKind:
                var found: Int?
                if let converter = options.keyConverter {
                    found = ConvertedKeys(
                        decoder: self, object: current, codingPath: Array(path.prefix(depth)), converter: converter
                    ).valueIndex(key.stringValue)
                } else {
                    found = member(key.stringValue, inObject: current, depth: depth)
                }
                if found == nil {
                    // The raw keys of `[String: Value]` dictionaries.
                    var name = key.stringValue
                    found = name.withUTF8 { member(named: $0, inObject: current, depth: depth) }
                }
                guard let found else { return current }
                current = found
            case Tape.arrayKind:
                guard let index = JSONDecodingFailure.arrayIndex(key) ?? key.intValue, index >= 0,
                    let element = storage.element(index, inArrayAt: current)
                else { return current }
                current = element
            default:
                return current
            }
        }
        return current
    }

    /// The keys of the object at `object` as they are in the JSON.
    func rawKeys(ofObject object: Int) -> [String] {
        var keys: [String] = []
        var position = object + 1
        let end = self.end(of: object)
        while position < end {
            keys.append(string(at: position))
            position = nextMember(position)
        }
        return keys
    }

    /// A short description of the value at `index`: `the string "abc"`, `the number 1.5`, `an array of 3
    /// elements`, `null`.
    func valueDescription(_ index: Int) -> String {
        switch kind(index) {
        case Tape.nullKind:
            return "null"
        case Tape.trueKind:
            return "true"
        case Tape.falseKind:
            return "false"
        case Tape.integerKind, Tape.numberKind:
            return "the number \(Self.excerpt(numberText(index)))"
        case Tape.stringKind:
            return "the string \"\(Self.excerpt(string(at: index)))\""
        case Tape.arrayKind:
            let count = storage.count(of: index)
            return count == 0 ? "an empty array" : "an array of \(count) element\(count == 1 ? "" : "s")"
        default:
            let count = storage.count(of: index)
            return count == 0 ? "an empty object" : "an object with \(count) member\(count == 1 ? "" : "s")"
        }
    }

    private static func excerpt(_ text: String) -> String {
        let escaped = text.unicodeScalars.map { $0.value < 0x20 ? $0.escaped(asASCII: true) : String($0) }.joined()
        return escaped.count > 40 ? String(escaped.prefix(40)) + "…" : escaped
    }
}
