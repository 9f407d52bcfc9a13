public import DecantCore
import DecantValueTree

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Decodes `Decodable` records from a ``CSVTable``: the table is an array of rows, each row a keyed container whose
/// keys are the header's column names (or, without a header, the column numbers as `intValue` keys).
///
/// Fields are strings; a field is read as `String`, `Bool` (`true`/`false`, `1`/`0`, any case), any integer type,
/// `Double` or `Float`, or as any `Decodable` type that decodes from a single string (enums with string
/// raw values, `URL`). An empty or missing field is `nil` for an optional property.
///
/// ```swift
/// struct Person: Decodable { let name: String; let age: Int?; }
/// let people = try CSVTableDecoder().decode([Person].self, from: table)
/// ```
public struct CSVTableDecoder: Sendable {
    /// Creates a decoder.
    public init() {}

    /// Decodes `T` (an array or other unkeyed collection of records) from `table`.
    ///
    /// - Throws: ``SerializationError`` with code `decodingFailed`, whose message names the row (1-based, after the
    ///   header) and column, with the coding path.
    public func decode<T: Decodable>(_ type: T.Type, from table: CSVTable) throws(SerializationError) -> T {
        do {
            return try T(from: TableDecoder(table: table))
        } catch {
            throw SerializationError(decoding: T.self, from: "CSV rows", failure: error, location: Self.location)
        }
    }

    /// `in row 2 at column 'age'`: a coding path is a row index (0-based, after the header), then a column name.
    static func location(_ path: [any CodingKey]) -> String {
        let row = path.first?.intValue.map { "in row \($0 + 1)" }
        let column = path.dropFirst().first.map { "at column '\($0.stringValue)'" }
        let words = [row, column].compactMap { $0 }
        return words.isEmpty ? "at the top level" : words.joined(separator: " ")
    }
}

/// `Decodable` records from `text/csv` and `text/tab-separated-values` responses, for
/// `SerializerRegistry.decode(_:from:)`: the body is parsed, then decoded with ``CSVTableDecoder``.
public struct CSVResponseDecoder: ResponseDecoder, FormatComponent {
    /// The `csv` format.
    public static var format: MediaFormat { .csv }

    /// The parser's options.
    public var options: CSVParsingOptions
    /// The media ranges accepted.
    public var mediaRanges: [MediaRange]

    /// Creates the decoder.
    public init(
        options: CSVParsingOptions = CSVParsingOptions(),
        mediaRanges: [MediaRange] = MediaFormat.csv.mediaRanges
    ) {
        self.options = options
        self.mediaRanges = mediaRanges
    }

    /// Parses the body and decodes `T` from its rows.
    public func decode<T: Decodable>(_ type: T.Type, from response: Response) throws -> T {
        do throws(SerializationError) {
            let table = try CSVParser(options: options).parse(response.body, mediaType: response.contentType)
            return try CSVTableDecoder().decode(type, from: table)
        } catch {
            throw error.filling(response: response, mediaType: response.contentType, serializerID: id)
        }
    }
}

/// The top level: the rows.
struct TableDecoder: Decoder {
    let table: CSVTable
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(
            [String: Any].self,
            .init(codingPath: [], debugDescription: "CSV rows decode as an array of records, not as one record"))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer { RowsContainer(table: table) }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            String.self, .init(codingPath: [], debugDescription: "CSV rows decode as an array of records"))
    }
}

struct RowsContainer: UnkeyedDecodingContainer {
    let table: CSVTable
    var currentIndex = 0
    var codingPath: [any CodingKey] { [] }
    var count: Int? { table.rows.count }
    var isAtEnd: Bool { currentIndex >= table.rows.count }

    mutating func next() throws -> RowDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                Any.self, .init(codingPath: [DecodingKey(index: currentIndex)], debugDescription: "no more rows"))
        }
        defer { currentIndex += 1 }
        return RowDecoder(row: table.rows[currentIndex], header: table.header, index: currentIndex)
    }

    mutating func decodeNil() throws -> Bool { false }
    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: next()) }
    mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> {
        try next().container(keyedBy: type)
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer { try next().unkeyedContainer() }
    mutating func superDecoder() throws -> any Decoder { try next() }
}

/// One row: keyed by column name (or number), or unkeyed as its fields in order.
struct RowDecoder: Decoder {
    let row: CSVRow
    let header: [String]?
    let index: Int
    var codingPath: [any CodingKey] { [DecodingKey(index: index)] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        KeyedDecodingContainer(RowContainer<Key>(row: row, header: header, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        FieldsContainer(row: row, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        throw DecodingError.typeMismatch(
            String.self, .init(codingPath: codingPath, debugDescription: "a CSV row is a record, not a single value"))
    }
}

struct RowContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let row: CSVRow
    let header: [String]?
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        guard let header else { return row.indices.compactMap { Key(intValue: $0) } }
        return header.prefix(row.count).compactMap { Key(stringValue: $0) }
    }

    func field(_ key: Key) -> String? {
        if header != nil { return row[key.stringValue] }
        guard let index = key.intValue ?? Int(key.stringValue), row.indices.contains(index) else { return nil }
        return row[index]
    }

    func contains(_ key: Key) -> Bool { field(key) != nil }

    func decodeNil(forKey key: Key) throws -> Bool { field(key)?.isEmpty ?? true }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        guard let value = field(key) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no such column"))
        }
        return try FieldDecoder(value: value, codingPath: codingPath + [key]).decodeValue(type)
    }

    func nestedContainer<N: CodingKey>(keyedBy type: N.Type, forKey key: Key) throws -> KeyedDecodingContainer<N> {
        throw DecodingError.typeMismatch(
            [String: Any].self, .init(codingPath: codingPath + [key], debugDescription: "a CSV field is a string"))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: codingPath + [key], debugDescription: "a CSV field is a string"))
    }

    func superDecoder() throws -> any Decoder { RowDecoder(row: row, header: header, index: 0) }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        FieldDecoder(value: field(key) ?? "", codingPath: codingPath + [key])
    }
}

/// A row's fields in order, for tuple-like records without a header.
struct FieldsContainer: UnkeyedDecodingContainer {
    let row: CSVRow
    let codingPath: [any CodingKey]
    var currentIndex = 0
    var count: Int? { row.count }
    var isAtEnd: Bool { currentIndex >= row.count }

    mutating func take() throws -> FieldDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(
                String.self, .init(codingPath: codingPath, debugDescription: "the row has no more fields"))
        }
        defer { currentIndex += 1 }
        return FieldDecoder(value: row[currentIndex], codingPath: codingPath + [DecodingKey(index: currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { return true }
        if row[currentIndex].isEmpty {
            currentIndex += 1
            return true
        }
        return false
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T { try take().decodeValue(type) }
    mutating func nestedContainer<N: CodingKey>(keyedBy type: N.Type) throws -> KeyedDecodingContainer<N> {
        throw DecodingError.typeMismatch(
            [String: Any].self, .init(codingPath: codingPath, debugDescription: "a CSV field is a string"))
    }
    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: codingPath, debugDescription: "a CSV field is a string"))
    }
    mutating func superDecoder() throws -> any Decoder { try take() }
}

/// One field: a single string value, converted on request.
struct FieldDecoder: Decoder, IntegerDecodingContainer {
    let value: String
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        throw DecodingError.typeMismatch(
            [String: Any].self, .init(codingPath: codingPath, debugDescription: "a CSV field is a string"))
    }
    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        throw DecodingError.typeMismatch(
            [Any].self, .init(codingPath: codingPath, debugDescription: "a CSV field is a string"))
    }
    func singleValueContainer() throws -> any SingleValueDecodingContainer { self }

    func mismatch<T>(_ type: T.Type) -> DecodingError {
        DecodingError.typeMismatch(type, .init(codingPath: codingPath, debugDescription: "the field is \"\(value)\""))
    }

    /// Decodes `type`, converting the primitive types from the string.
    func decodeValue<T: Decodable>(_ type: T.Type) throws -> T {
        switch type {
        case is String.Type: return value as! T
        case is Bool.Type: return try decode(Bool.self) as! T
        case is Double.Type: return try decode(Double.self) as! T
        case is Float.Type: return try decode(Float.self) as! T
        case is Int.Type: return try decodeInteger(Int.self) as! T
        case is Int8.Type: return try decodeInteger(Int8.self) as! T
        case is Int16.Type: return try decodeInteger(Int16.self) as! T
        case is Int32.Type: return try decodeInteger(Int32.self) as! T
        case is Int64.Type: return try decodeInteger(Int64.self) as! T
        case is UInt.Type: return try decodeInteger(UInt.self) as! T
        case is UInt8.Type: return try decodeInteger(UInt8.self) as! T
        case is UInt16.Type: return try decodeInteger(UInt16.self) as! T
        case is UInt32.Type: return try decodeInteger(UInt32.self) as! T
        case is UInt64.Type: return try decodeInteger(UInt64.self) as! T
        default: return try T(from: self)
        }
    }

    func decodeInteger<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        guard let number = I(value) else { throw mismatch(type) }
        return number
    }

    func decodeNil() -> Bool { value.isEmpty }
    func decode(_ type: Bool.Type) throws -> Bool {
        switch value.lowercased() {
        case "true", "1": return true
        case "false", "0": return false
        default: throw mismatch(type)
        }
    }
    func decode(_ type: String.Type) throws -> String { value }
    func decode(_ type: Double.Type) throws -> Double {
        guard let number = Double(value) else { throw mismatch(type) }
        return number
    }
    func decode(_ type: Float.Type) throws -> Float {
        guard let number = Float(value) else { throw mismatch(type) }
        return number
    }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try decodeValue(type) }
}
