public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension JSONValue {
    /// The value at `pointer` (RFC 6901) inside this one, sharing this value's storage: nothing is copied.
    ///
    /// Each token costs one pass over the members of an object (keys compared as UTF-8 bytes, no normalisation) or
    /// a skip over the elements of an array before the index, each skipped in one step whatever it holds.
    ///
    /// ```swift
    /// let document = try JSONParser().parse(body)
    /// let name = try document.value(at: "/data/0/name").stringValue
    /// ```
    ///
    /// - Throws: `SerializationError` with code `pointerNotFound`, naming the deepest part of the pointer that
    ///   matched and what is there.
    public func value(at pointer: JSONPointer) throws(SerializationError) -> JSONValue {
        var path: [CodingPathComponent] = []
        return try resolve(pointer, path: &path)
    }

    /// The value at `pointer`, or `nil` when there is none.
    public subscript(pointer pointer: JSONPointer) -> JSONValue? {
        try? value(at: pointer)
    }

    /// Walks the tape to `pointer`'s value, collecting the coding path of the tokens (keys and array indexes).
    func resolve(_ pointer: JSONPointer, path: inout [CodingPathComponent]) throws(SerializationError) -> JSONValue {
        let storage = self.storage
        path.reserveCapacity(pointer.tokens.count)
        let found = try pointer.resolve(from: index) { (node: Int, token: String) -> JSONPointer.Step<Int> in
            let entry = storage.tape[node]
            switch Tape.kind(entry) {
            case Tape.objectKind:
                var key = token
                let member: Int? = key.withUTF8 { wanted in
                    var position = node + 1
                    let end = storage.end(of: node)
                    while position < end {
                        if storage.keyEquals(at: position, wanted) { return position + 1 }
                        position = storage.end(of: position + 1)
                    }
                    return nil
                }
                guard let member else {
                    let count = storage.count(of: node)
                    return .noMember("an object of \(count) member\(count == 1 ? "" : "s")")
                }
                path.append(.key(JSONStringKey(token)))
                return .found(member)
            case Tape.arrayKind:
                let count = storage.count(of: node)
                guard let wanted = JSONPointer.arrayIndex(token), wanted < count else {
                    return .noElement("an array of \(count) element\(count == 1 ? "" : "s")", count: count)
                }
                var position = node + 1
                for _ in 0..<wanted { position = storage.end(of: position) }
                path.append(.index(wanted))
                return .found(position)
            default:
                return .leaf(JSONValue(storage: storage, index: node).kindPhrase)
            }
        }
        return JSONValue(storage: storage, index: found)
    }

    /// What a scalar is, for errors: `a string`, `a number`, `true`, `false`, `null`.
    var kindPhrase: String {
        switch tapeKind {
        case Tape.nullKind: "null"
        case Tape.falseKind: "false"
        case Tape.trueKind: "true"
        case Tape.integerKind, Tape.numberKind: "a number"
        case Tape.stringKind: "a string"
        case Tape.arrayKind: "an array"
        default: "an object"
        }
    }
}

extension JSONValueDecoder {
    /// Parses `data` as JSON and decodes a `T` from the value at `pointer` (RFC 6901), without decoding the rest.
    ///
    /// The body is parsed onto its tape (which validates all of it, as ``decode(_:from:)-(_,Data)`` does), the tape
    /// is walked to the pointed value, skipping siblings in one step each, and only that value is decoded, with this
    /// decoder's strategies. A decoding error's coding path starts with the pointer's tokens (`["data", "0",
    /// "name"]`) and its offset is in `data`.
    ///
    /// ```swift
    /// let users = try JSONValueDecoder().decode([User].self, from: body, at: "/data")
    /// ```
    ///
    /// - Throws: `SerializationError`: the parser's errors; `pointerNotFound` when there is no value at `pointer`
    ///   (the message names the deepest part that matched); `decodingFailed` as ``decode(_:from:)-(_,Data)``.
    public func decode<T: Decodable>(
        _ type: T.Type, from data: Data, at pointer: JSONPointer
    ) throws(SerializationError) -> T {
        let value = try JSONParser(options: parsingOptions).parse(data)
        return try decode(type, from: value, at: pointer, source: data)
    }

    /// Decodes a `T` from the value at `pointer` inside `value`; coding paths in errors start with the pointer's
    /// tokens.
    ///
    /// - Throws: `SerializationError`: `pointerNotFound` or `decodingFailed`.
    public func decode<T: Decodable>(
        _ type: T.Type, from value: JSONValue, at pointer: JSONPointer
    ) throws(SerializationError) -> T {
        try decode(type, from: value, at: pointer, source: nil)
    }

    func decode<T: Decodable>(
        _ type: T.Type, from value: JSONValue, at pointer: JSONPointer, source: Data?
    ) throws(SerializationError) -> T {
        var path: [CodingPathComponent] = []
        let found = try value.resolve(pointer, path: &path)
        // Rooted at the document (byte offsets are located from there), decoding from the pointed value.
        let document = TapeDecoder(storage: value.storage, root: value.index, options: TapeDecodingOptions(self))
        let decoder = TapeDecoder(sharing: document, at: found.index, path: path)
        do {
            return try decoder.decodeRoot(type)
        } catch {
            throw JSONDecodingFailure.serializationError(for: error, in: decoder, source: source)
        }
    }
}
