public import DecantCore

#if canImport(FoundationEssentials)
    public import FoundationEssentials
#else
    public import Foundation
#endif

/// Encodes an array of flat `Encodable` records into a ``CSVTable``: the inverse of ``CSVTableDecoder``.
///
/// - Rows: each element of the top-level array is a row. A record (a struct, a class, a dictionary) is keyed: its
///   keys name the columns. The header is the keys of the first row in their order, followed by any key a later row
///   brings, in the order they first appear (an optional property that is `nil` in the first row still gets its
///   column); a row without some column has an empty field there, as Python's `csv.DictWriter` writes it. A
///   dictionary's keys are sorted by their UTF-8 bytes (a dictionary has no order), and all columns are when
///   `EncodingOptions.outputFormatting` contains `.sortedKeys`. Alternatively every row may be a list of single
///   values (`[[String]]`): the table then has no header. Mixing the two, a single value as a row, or a `nil` row is
///   `encodingFailed`. An empty array is a table with no header and no rows.
/// - Fields: `String` as it is; integers in decimal; `Double` and `Float` in Swift's shortest round-tripping
///   spelling, infinities and NaN per `EncodingOptions.nonConformingFloatEncodingStrategy` (by default
///   `encodingFailed`); `Bool` as `true`/`false`; `URL` as its absolute string; `Decimal` as its description; `nil`
///   as an empty field (``CSVTableDecoder`` reads an empty field as `nil`). `Date` per
///   `EncodingOptions.dateEncodingStrategy` (by default `.deferredToDate`: seconds since 2001-01-01, as `JSONEncoder`
///   writes; the ISO 8601 strategies write RFC 3339 date-times in UTC); `Data` per
///   `EncodingOptions.dataEncodingStrategy` (Base64 by default; `.deferredToData` writes a list of bytes, which a
///   field cannot hold). Enums with raw values and other single-value wrappers work as their wrapped value does.
/// - Keys: per `EncodingOptions.keyEncodingStrategy`; a dictionary's keys are written as they are. A column written
///   twice in one row (two keys that convert to the same name) is `encodingFailed`.
/// - Nesting: a field holding a structure or a list (a nested struct, an array property) is `encodingFailed` with
///   its coding path (`[row index, key]`): CSV fields are flat. Flatten the type, or send it as JSON.
///
/// ```swift
/// struct Person: Encodable { var name: String; var age: Int?; var joined: Date }
/// let encoder = CSVEncoder(encodingOptions: EncodingOptions(dateEncodingStrategy: .iso8601))
/// let body = try encoder.encode([Person(name: "Ada", age: nil, joined: Date(timeIntervalSince1970: 0))])
/// // name,joined\r\nAda,1970-01-01T00:00:00Z\r\n
/// ```
public struct CSVEncoder: Sendable {
    /// How deep single values may wrap one another (a property wrapper around a `RawRepresentable` around a
    /// `String` is three deep): 64. A deeper value throws `limitExceeded` rather than exhausting the stack.
    public static let maxNestingDepth = 64

    /// The core strategies that apply to CSV: keys, dates, data, non-finite numbers, `.sortedKeys` and `userInfo`
    /// (a `nil` strategy keeps the default stated above; other fields are ignored).
    public var encodingOptions: EncodingOptions

    /// Creates an encoder.
    public init(encodingOptions: EncodingOptions = EncodingOptions()) {
        self.encodingOptions = encodingOptions
    }

    /// Encodes `rows` (an array of records, or of lists of single values) into a table.
    ///
    /// - Throws: `SerializationError` with code `encodingFailed` (a nested structure, a top-level value that is not a
    ///   list of rows, a non-finite number, a column written twice, or an error the value's own `encode(to:)` threw,
    ///   kept as `SerializationError.underlying`), with the coding path in `SerializationError.codingPath`;
    ///   `limitExceeded` past ``maxNestingDepth``.
    public func encodeTable<T: Encodable>(_ rows: T) throws(SerializationError) -> CSVTable {
        let sink = RowSink(options: encodingOptions, rootType: T.self)
        do {
            try rows.encode(to: TopEncoder(sink: sink, depth: 0))
        } catch {
            throw sink.failure ?? Self.wrap(error, encoding: T.self)
        }
        if let failure = sink.failure { throw failure }
        return try sink.table()
    }

    /// Encodes `rows` into a table and writes it with `writer` as `mediaType` (CSV in UTF-8 by default).
    ///
    /// - Throws: `SerializationError` as ``encodeTable(_:)`` and ``CSVWriter/write(_:as:)`` do.
    public func encode<T: Encodable>(
        _ rows: T, as mediaType: MediaType? = nil, writer: CSVWriter = CSVWriter()
    ) throws(SerializationError) -> Data {
        try writer.write(try encodeTable(rows), as: mediaType)
    }

    /// The error for a failure thrown by the value's own code.
    private static func wrap(_ error: any Error, encoding type: Any.Type) -> SerializationError {
        if let error = error as? SerializationError { return error }
        if case EncodingError.invalidValue(_, let context) = error {
            return SerializationError(
                code: .encodingFailed,
                message: "Encoding \(type) as CSV rows failed \(SerializationError.location(of: context.codingPath)): "
                    + "\(context.debugDescription)",
                codingPath: RowSink.strings(context.codingPath), underlying: error)
        }
        return SerializationError(
            code: .encodingFailed, message: "Encoding \(type) as CSV rows failed: \(error).", underlying: error)
    }
}

/// Dictionaries: their keys are data, written as they are and sorted.
private protocol CSVDictionaryMarker {}
extension Dictionary: CSVDictionaryMarker {}

// MARK: - The Encoder implementation

/// The state of one encoding: the options and the rows written so far.
private final class RowSink {
    /// One row: named fields (a record) or fields in order (a list).
    enum Row {
        case keyed([(name: String, value: String)])
        case unkeyed([String])
    }

    let keyStrategy: EncodingOptions.KeyEncodingStrategy
    let dateStrategy: EncodingOptions.DateEncodingStrategy
    let dataStrategy: EncodingOptions.DataEncodingStrategy
    let floatStrategy: EncodingOptions.NonConformingFloatEncodingStrategy
    let sortsKeys: Bool
    let userInfo: [CodingUserInfoKey: Any]
    let rootType: Any.Type
    var rows: [Row] = []
    /// Rows whose keys are a dictionary's: not converted, sorted.
    var dictionaryRows: Set<Int> = []
    /// The first failure found where the `Encoder` API cannot throw: reported even when the value's code ignores the
    /// error its container later throws.
    var failure: SerializationError?

    init(options: EncodingOptions, rootType: Any.Type) {
        keyStrategy = options.keyEncodingStrategy ?? .useDefaultKeys
        dateStrategy = options.dateEncodingStrategy ?? .deferredToDate
        dataStrategy = options.dataEncodingStrategy ?? .base64
        floatStrategy = options.nonConformingFloatEncodingStrategy ?? .throw
        sortsKeys = options.outputFormatting?.contains(.sortedKeys) == true
        userInfo = options.userInfo
        self.rootType = rootType
    }

    func record(_ error: SerializationError) -> SerializationError {
        if failure == nil { failure = error }
        return error
    }

    /// Starts row `index` of `kind` (when it is not started yet: a class's `superEncoder` writes into the same row).
    func start(row index: Int, keyed: Bool) throws(SerializationError) {
        guard index >= 0 else { throw topLevelError(describing: "a single record") }
        if index < rows.count {
            switch (rows[index], keyed) {
            case (.keyed, true), (.unkeyed, false): return
            default: throw record(Self.mixedError(at: index))
            }
        }
        rows.append(keyed ? .keyed([]) : .unkeyed([]))
    }

    func append(_ value: String, row: Int, name: String?) {
        // Only a value whose encoding has already failed (and recorded why) writes outside the rows.
        guard rows.indices.contains(row) else { return }
        switch rows[row] {
        case .keyed(var fields):
            rows[row] = .keyed([])  // One reference to the array, so the append does not copy it.
            fields.append((name ?? "", value))
            rows[row] = .keyed(fields)
        case .unkeyed(var fields):
            rows[row] = .unkeyed([])
            fields.append(value)
            rows[row] = .unkeyed(fields)
        }
    }

    func name(for key: any CodingKey, row: Int) -> String {
        dictionaryRows.contains(row) ? key.stringValue : keyStrategy.convert(key, codingPath: [])
    }

    /// The table: the header as the union of the rows' names (or none for lists), each row's fields in its columns.
    func table() throws(SerializationError) -> CSVTable {
        guard let first = rows.first else { return CSVTable(header: nil, rows: []) }
        if case .unkeyed = first {
            var lists: [[String]] = []
            lists.reserveCapacity(rows.count)
            for (index, row) in rows.enumerated() {
                guard case .unkeyed(let fields) = row else { throw Self.mixedError(at: index) }
                lists.append(fields)
            }
            return CSVTable(header: nil, rows: lists)
        }
        var header: [String] = []
        var columns: [String: Int] = [:]
        var keyedRows: [[(name: String, value: String)]] = []
        keyedRows.reserveCapacity(rows.count)
        for (index, row) in rows.enumerated() {
            guard case .keyed(var fields) = row else { throw Self.mixedError(at: index) }
            if dictionaryRows.contains(index) { fields.sort { $0.name.utf8.lexicographicallyPrecedes($1.name.utf8) } }
            for field in fields where columns[field.name] == nil {
                columns[field.name] = header.count
                header.append(field.name)
            }
            keyedRows.append(fields)
        }
        if sortsKeys {
            header.sort { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (column, name) in header.enumerated() { columns[name] = column }
        }
        var table: [[String]] = []
        table.reserveCapacity(keyedRows.count)
        for (index, fields) in keyedRows.enumerated() {
            var cells = [String?](repeating: nil, count: header.count)
            for field in fields {
                let column = columns[field.name]!
                guard cells[column] == nil else {
                    throw SerializationError(
                        code: .encodingFailed,
                        message: "Row \(index + 1) writes the column '\(field.name)' twice (two keys that convert to "
                            + "the same name, or a subclass and its superclass sharing a key); a CSV row has one "
                            + "field per column.",
                        codingPath: [String(index), field.name])
                }
                cells[column] = field.value
            }
            table.append(cells.map { $0 ?? "" })
        }
        return CSVTable(header: header, rows: table)
    }

    func text(_ value: Bool) -> String { value ? "true" : "false" }

    func text<Number: BinaryFloatingPoint & LosslessStringConvertible>(
        _ value: Number, at path: @autoclosure () -> [any CodingKey]
    ) throws(SerializationError) -> String {
        if value.isFinite { return value.description }
        let path = path()
        guard case .convertToString(let positive, let negative, let nan) = floatStrategy else {
            throw record(
                SerializationError(
                    code: .encodingFailed,
                    message: "The number \(value) \(SerializationError.location(of: path)) is not finite. Set "
                        + "nonConformingFloatEncodingStrategy to .convertToString to write it as text.",
                    codingPath: Self.strings(path)))
        }
        return value.isNaN ? nan : value < 0 ? negative : positive
    }

    static func strings(_ path: [any CodingKey]) -> [String] {
        path.map { $0.intValue.map(String.init) ?? $0.stringValue }
    }

    static func mixedError(at row: Int) -> SerializationError {
        SerializationError(
            code: .encodingFailed,
            message: "Row \(row + 1) is a record where the rows before it are lists, or a list where they are records: "
                + "every row must be of one kind (records give the table a header, lists do not).",
            codingPath: [String(row)])
    }

    func topLevelError(describing what: String) -> SerializationError {
        record(
            SerializationError(
                code: .encodingFailed,
                message: "CSV rows are written from a list of records, so they cannot be written from \(what) "
                    + "(\(rootType)). Encode an array of structs, classes or dictionaries."))
    }

    func rowError(_ what: String, at row: Int) -> SerializationError {
        record(
            SerializationError(
                code: .encodingFailed,
                message: "Row \(row + 1) is \(what), not a record or a list of fields (\(rootType)).",
                codingPath: [String(row)]))
    }

    func nestingError(_ what: String, at path: [any CodingKey]) -> SerializationError {
        record(
            SerializationError(
                code: .encodingFailed,
                message: "A CSV field cannot hold \(what) (\(SerializationError.location(of: path))): fields are flat, "
                    + "one single value each. Flatten the type, or send it in a format that nests, such as JSON.",
                codingPath: Self.strings(path)))
    }

    func depthError(at path: [any CodingKey]) -> SerializationError {
        record(
            SerializationError(
                code: .limitExceeded,
                message: "The value \(SerializationError.location(of: path)) wraps single values more than "
                    + "\(CSVEncoder.maxNestingDepth) deep (CSVEncoder.maxNestingDepth).",
                codingPath: Self.strings(path)))
    }
}

/// An index in a list, for coding paths.
private struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(stringValue: String) { return nil }
    init?(intValue: Int) { self.intValue = intValue }
}

/// The scalar `encode` overloads of single-value and list containers, stated once.
private protocol ScalarEncoding {
    var sink: RowSink { get }
    /// The coding path of the value about to be written.
    var valuePath: [any CodingKey] { get }
    mutating func write(_ text: String) throws
}

extension ScalarEncoding {
    mutating func encode(_ value: Bool) throws { try write(sink.text(value)) }
    mutating func encode(_ value: String) throws { try write(value) }
    mutating func encode(_ value: Double) throws { try write(sink.text(value, at: valuePath)) }
    mutating func encode(_ value: Float) throws { try write(sink.text(value, at: valuePath)) }
    mutating func encode(_ value: Int) throws { try write(String(value)) }
    mutating func encode(_ value: Int8) throws { try write(String(value)) }
    mutating func encode(_ value: Int16) throws { try write(String(value)) }
    mutating func encode(_ value: Int32) throws { try write(String(value)) }
    mutating func encode(_ value: Int64) throws { try write(String(value)) }
    mutating func encode(_ value: UInt) throws { try write(String(value)) }
    mutating func encode(_ value: UInt8) throws { try write(String(value)) }
    mutating func encode(_ value: UInt16) throws { try write(String(value)) }
    mutating func encode(_ value: UInt32) throws { try write(String(value)) }
    mutating func encode(_ value: UInt64) throws { try write(String(value)) }
}

/// The top level: a list of rows; a single value only when it wraps one.
private struct TopEncoder: Encoder {
    let sink: RowSink
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { sink.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let error = sink.topLevelError(describing: "a single record")
        return KeyedEncodingContainer(RecordEncodingContainer<Key>(sink: sink, row: -1, failure: error, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer { RowListEncodingContainer(sink: sink, depth: depth) }

    func singleValueContainer() -> any SingleValueEncodingContainer { TopValueContainer(sink: sink, depth: depth) }
}

/// A single value at the top level: a wrapper around a list is encoded as that list; anything else fails.
private struct TopValueContainer: SingleValueEncodingContainer, ScalarEncoding {
    let sink: RowSink
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var valuePath: [any CodingKey] { [] }

    mutating func write(_ text: String) throws { throw sink.topLevelError(describing: "a single value") }
    mutating func encodeNil() throws { throw sink.topLevelError(describing: "nil") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard depth < CSVEncoder.maxNestingDepth else { throw sink.depthError(at: []) }
        try value.encode(to: TopEncoder(sink: sink, depth: depth + 1))
    }
}

/// The rows.
private struct RowListEncodingContainer: UnkeyedEncodingContainer, ScalarEncoding {
    let sink: RowSink
    let depth: Int
    var codingPath: [any CodingKey] { [] }
    var count: Int { sink.rows.count }
    var valuePath: [any CodingKey] { [IndexKey(count)] }

    mutating func write(_ text: String) throws { throw sink.rowError("a single value", at: count) }
    mutating func encodeNil() throws { throw sink.rowError("nil", at: count) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let row = count
        if value is any CSVDictionaryMarker { sink.dictionaryRows.insert(row) }
        try value.encode(to: RowEncoder(sink: sink, row: row, depth: depth + 1))
        // A record that wrote no key (every property nil) is still a row.
        if sink.rows.count == row { try sink.start(row: row, keyed: true) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        RowEncoder(sink: sink, row: count, depth: depth + 1).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        RowEncoder(sink: sink, row: count, depth: depth + 1).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder { RowEncoder(sink: sink, row: count, depth: depth + 1) }
}

/// The encoder of one row: a record, a list of fields, or a single value that wraps one of them.
private struct RowEncoder: Encoder {
    let sink: RowSink
    let row: Int
    let depth: Int
    var codingPath: [any CodingKey] { [IndexKey(row)] }
    var userInfo: [CodingUserInfoKey: Any] { sink.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        var failure: SerializationError? = nil
        do throws(SerializationError) {
            try sink.start(row: row, keyed: true)
        } catch {
            failure = error
        }
        return KeyedEncodingContainer(
            RecordEncodingContainer<Key>(sink: sink, row: row, failure: failure, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        var failure: SerializationError? = nil
        do throws(SerializationError) {
            try sink.start(row: row, keyed: false)
        } catch {
            failure = error
        }
        return FieldListContainer(sink: sink, row: row, failure: failure, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { RowValueContainer(encoder: self) }
}

/// A row that is a single value: a wrapper around a record or a list works; a scalar fails.
private struct RowValueContainer: SingleValueEncodingContainer, ScalarEncoding {
    let encoder: RowEncoder
    var sink: RowSink { encoder.sink }
    var codingPath: [any CodingKey] { encoder.codingPath }
    var valuePath: [any CodingKey] { encoder.codingPath }

    mutating func write(_ text: String) throws { throw sink.rowError("a single value", at: encoder.row) }
    mutating func encodeNil() throws { throw sink.rowError("nil", at: encoder.row) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        guard encoder.depth < CSVEncoder.maxNestingDepth else { throw sink.depthError(at: codingPath) }
        if T.self == String.self || T.self == Date.self || T.self == Data.self || T.self == URL.self
            || T.self == Decimal.self
        {
            throw sink.rowError("a single \(T.self) value", at: encoder.row)
        }
        if value is any CSVDictionaryMarker { sink.dictionaryRows.insert(encoder.row) }
        try value.encode(to: RowEncoder(sink: sink, row: encoder.row, depth: encoder.depth + 1))
    }
}

/// The fields of a record, by name. With a `failure`, every write throws it.
private struct RecordEncodingContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let sink: RowSink
    let row: Int
    let failure: SerializationError?
    let depth: Int
    var codingPath: [any CodingKey] { row < 0 ? [] : [IndexKey(row)] }

    private func write(_ text: String, forKey key: Key) throws {
        if let failure { throw failure }
        sink.append(text, row: row, name: sink.name(for: key, row: row))
    }

    mutating func encodeNil(forKey key: Key) throws { try write("", forKey: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try write(sink.text(value), forKey: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { try write(value, forKey: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws {
        try write(sink.text(value, at: codingPath + [key]), forKey: key)
    }
    mutating func encode(_ value: Float, forKey key: Key) throws {
        try write(sink.text(value, at: codingPath + [key]), forKey: key)
    }
    mutating func encode(_ value: Int, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try write(String(value), forKey: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try write(String(value), forKey: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        if let failure { throw failure }
        try field(key).encodeValue(value)
    }

    private func field(_ key: Key) -> FieldEncoder {
        FieldEncoder(
            sink: sink, row: row, name: sink.name(for: key, row: row), path: codingPath + [key], depth: depth + 1)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type, forKey key: Key
    ) -> KeyedEncodingContainer<NestedKey> {
        let error = failure ?? sink.nestingError("a nested structure", at: codingPath + [key])
        return KeyedEncodingContainer(
            RecordEncodingContainer<NestedKey>(sink: sink, row: row, failure: error, depth: depth))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let error = failure ?? sink.nestingError("a list", at: codingPath + [key])
        return FieldListContainer(sink: sink, row: row, failure: error, depth: depth)
    }

    /// The superclass's fields, beside this class's.
    mutating func superEncoder() -> any Encoder { RowEncoder(sink: sink, row: row, depth: depth + 1) }

    mutating func superEncoder(forKey key: Key) -> any Encoder { field(key) }
}

/// The encoder of one field: a single value.
private struct FieldEncoder: Encoder {
    let sink: RowSink
    let row: Int
    /// The column name, or `nil` in a list row.
    let name: String?
    let path: [any CodingKey]
    let depth: Int
    var userInfo: [CodingUserInfoKey: Any] { sink.userInfo }
    var codingPath: [any CodingKey] { path }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        let error = sink.nestingError("a nested structure", at: codingPath)
        return KeyedEncodingContainer(RecordEncodingContainer<Key>(sink: sink, row: row, failure: error, depth: depth))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        let error = sink.nestingError("a list", at: codingPath)
        return FieldListContainer(sink: sink, row: row, failure: error, depth: depth)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer { FieldValueContainer(encoder: self) }

    func append(_ text: String) { sink.append(text, row: row, name: name) }

    /// This encoder one level deeper, for a value that encodes itself through it.
    private func deeper() throws -> FieldEncoder {
        guard depth < CSVEncoder.maxNestingDepth else { throw sink.depthError(at: codingPath) }
        return FieldEncoder(sink: sink, row: row, name: name, path: path, depth: depth + 1)
    }

    /// Encodes `value`: the types with a strategy or a spelling of their own here, any other through its
    /// `encode(to:)`.
    func encodeValue<T: Encodable>(_ value: T) throws {
        if T.self == String.self {
            append(value as! String)
        } else if T.self == Date.self {
            try encode(value as! Date)
        } else if T.self == Data.self {
            try encode(value as! Data)
        } else if T.self == URL.self {
            append((value as! URL).absoluteString)
        } else if T.self == Decimal.self {
            append((value as! Decimal).description)
        } else {
            try value.encode(to: deeper())
        }
    }

    private func encode(_ date: Date) throws {
        switch sink.dateStrategy {
        case .deferredToDate: try date.encode(to: deeper())
        case .secondsSince1970: append(date.timeIntervalSince1970.description)
        case .millisecondsSince1970: append((date.timeIntervalSince1970 * 1000).description)
        case .iso8601: append(Date.ISO8601FormatStyle().format(date))
        case .iso8601WithFractionalSeconds:
            append(Date.ISO8601FormatStyle(includingFractionalSeconds: true).format(date))
        case .custom(let closure): try closure(date, deeper())
        }
    }

    private func encode(_ data: Data) throws {
        switch sink.dataStrategy {
        case .deferredToData: try data.encode(to: deeper())
        case .base64: append(data.base64EncodedString())
        case .custom(let closure): try closure(data, deeper())
        }
    }
}

/// The value of one field.
private struct FieldValueContainer: SingleValueEncodingContainer, ScalarEncoding {
    let encoder: FieldEncoder
    var sink: RowSink { encoder.sink }
    var codingPath: [any CodingKey] { encoder.codingPath }
    var valuePath: [any CodingKey] { encoder.codingPath }

    mutating func write(_ text: String) throws { encoder.append(text) }
    mutating func encodeNil() throws { encoder.append("") }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoder.encodeValue(value) }
}

/// The fields of a list row, in order. With a `failure` (a list where a field was expected), every write throws it.
private struct FieldListContainer: UnkeyedEncodingContainer, ScalarEncoding {
    let sink: RowSink
    let row: Int
    let failure: SerializationError?
    let depth: Int
    private(set) var count = 0

    init(sink: RowSink, row: Int, failure: SerializationError?, depth: Int) {
        self.sink = sink
        self.row = row
        self.failure = failure
        self.depth = depth
    }

    var codingPath: [any CodingKey] { [IndexKey(row)] }
    var valuePath: [any CodingKey] { codingPath + [IndexKey(count)] }

    private func element() throws -> FieldEncoder {
        if let failure { throw failure }
        return FieldEncoder(sink: sink, row: row, name: nil, path: valuePath, depth: depth + 1)
    }

    mutating func write(_ text: String) throws {
        try element().append(text)
        count += 1
    }

    mutating func encodeNil() throws { try write("") }

    mutating func encode<T: Encodable>(_ value: T) throws {
        try element().encodeValue(value)
        count += 1
    }

    mutating func nestedContainer<NestedKey: CodingKey>(
        keyedBy keyType: NestedKey.Type
    ) -> KeyedEncodingContainer<NestedKey> {
        let path = valuePath
        count += 1
        let error = failure ?? sink.nestingError("a nested structure", at: path)
        return KeyedEncodingContainer(
            RecordEncodingContainer<NestedKey>(sink: sink, row: row, failure: error, depth: depth))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = valuePath
        count += 1
        let error = failure ?? sink.nestingError("a list", at: path)
        return FieldListContainer(sink: sink, row: row, failure: error, depth: depth)
    }

    mutating func superEncoder() -> any Encoder {
        let encoder = FieldEncoder(sink: sink, row: row, name: nil, path: valuePath, depth: depth + 1)
        count += 1
        return encoder
    }
}
