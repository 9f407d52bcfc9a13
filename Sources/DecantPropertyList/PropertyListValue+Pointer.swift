public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

extension PropertyListValue {
    /// The value at `pointer` (RFC 6901) inside this one: a token selects a dictionary's value by its key, or an
    /// array's element by its index.
    ///
    /// - Throws: `SerializationError` with code `pointerNotFound`, naming the deepest part that matched.
    public func value(at pointer: JSONPointer) throws(SerializationError) -> PropertyListValue {
        var path: [any CodingKey] = []
        return try resolve(pointer, path: &path)
    }

    /// Walks to `pointer`'s value, collecting the coding path of the tokens.
    func resolve(_ pointer: JSONPointer, path: inout [any CodingKey]) throws(SerializationError) -> PropertyListValue {
        try pointer.resolve(from: self) {
            (node: PropertyListValue, token: String) -> JSONPointer.Step<PropertyListValue> in
            switch node {
            case .dictionary(let dictionary):
                guard let value = dictionary[token] else {
                    return .noMember("a dictionary of \(dictionary.count) entries")
                }
                path.append(IndexKey(stringValue: token))
                return .found(value)
            case .array(let array):
                guard let index = JSONPointer.arrayIndex(token), index < array.count else {
                    return .noElement("an array of \(array.count) elements", count: array.count)
                }
                path.append(IndexKey(intValue: index))
                return .found(array[index])
            default:
                return .leaf(node.kindDescription)
            }
        }
    }
}

extension PropertyListValueDecoder {
    /// Parses `data` and decodes a `T` from the value at `pointer`, with coding paths in errors that start with the
    /// pointer's tokens.
    ///
    /// The whole property list is parsed into a ``PropertyListValue`` first (a property list has no tape: XML and
    /// OpenStep text must be read to the end to be checked, and the parser builds the tree as it reads); only the
    /// pointed value is decoded.
    ///
    /// - Throws: `SerializationError`: the parser's codes, `pointerNotFound` or `decodingFailed`.
    public func decode<T: Decodable>(
        _ type: T.Type, from data: Data, at pointer: JSONPointer
    ) throws(SerializationError) -> T {
        try decode(type, from: PropertyListParser(options: parsingOptions).parse(data), at: pointer)
    }

    /// Decodes a `T` from the value at `pointer` inside `value`.
    ///
    /// - Throws: `SerializationError`: `pointerNotFound` or `decodingFailed`.
    public func decode<T: Decodable>(
        _ type: T.Type, from value: PropertyListValue, at pointer: JSONPointer
    ) throws(SerializationError) -> T {
        var path: [any CodingKey] = []
        let found = try value.resolve(pointer, path: &path)
        return try decode(type, from: found, codingPath: path)
    }
}

extension PropertyListResponseDecoder {
    /// `true`: property lists decode at a JSON Pointer (after parsing the whole body into its tree).
    public var decodesAtPointer: Bool { true }

    /// Parses the body as ``decode(_:from:)`` does and decodes a `T` from the value at `pointer` only.
    ///
    /// - Throws: `SerializationError`: the parser's codes, `pointerNotFound` or `decodingFailed`, with the
    ///   response, its media type and the id `propertyList` attached.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response, at pointer: JSONPointer) throws -> T {
        do {
            let value = try PropertyListParser(options: decoder.parsingOptions)
                .parse(response.body, mediaType: response.contentType)
            return try decoder.decode(type, from: value, at: pointer)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }

    /// The ``PropertyListValue`` at `pointer` in the body of `response`.
    ///
    /// - Throws: `SerializationError`: the parser's codes or `pointerNotFound`, with the response attached.
    public func value(from response: Response, at pointer: JSONPointer) throws -> any Sendable {
        do {
            return try PropertyListParser(options: decoder.parsingOptions)
                .parse(response.body, mediaType: response.contentType).value(at: pointer)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}
