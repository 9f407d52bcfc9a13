/// A parsed CSV or TSV body: the header, when the body has one, and the data rows, every field a string.
///
/// The fields are kept compactly (their UTF-8 bytes back to back and one offset per field), so a table costs little
/// more than its text; a ``CSVRow`` and its strings are made when they are read.
///
/// ```swift
/// let table = try CSVParser().parse(Data("name,age\r\nAda,36\r\n".utf8))
/// print(table.header ?? [])  // ["name", "age"]
/// print(table.rows[0][1])  // "36"
/// print(table.rows[0]["name"] ?? "")  // "Ada"
/// ```
public struct CSVTable: Sendable, Hashable {
    /// The first record's fields when the body has a header row, else `nil`.
    public let header: [String]?
    /// The data rows in document order (the header row excluded).
    public let rows: Rows

    /// A table from rows of strings: for tests and for building tables in code.
    public init(header: [String]?, rows: [[String]]) {
        var builder = CSVTableBuilder()
        for row in rows {
            for field in row { builder.append(field: Array(field.utf8)) }
            builder.endRecord()
        }
        self.header = header
        self.rows = Rows(storage: builder.storage(), header: header)
    }

    /// A table over `storage`, whose first `skippedRows` rows (the header) are not data rows.
    init(header: [String]?, storage: Storage, skippedRows: Int) {
        self.header = header
        self.rows = Rows(storage: storage, header: header, firstRow: skippedRows)
    }

    /// The rows of a table: a random-access collection of ``CSVRow``.
    public struct Rows: RandomAccessCollection, Sendable, Hashable {
        let layout: Layout
        var storage: Storage { layout.storage }
        /// The storage's rows before the first data row (1 when the header is stored there too).
        let firstRow: Int

        init(storage: Storage, header: [String]?, firstRow: Int = 0) {
            self.firstRow = firstRow
            var columns: [String: Int] = [:]
            for (index, name) in (header ?? []).enumerated() where columns[name] == nil { columns[name] = index }
            self.layout = Layout(storage: storage, columns: columns)
        }

        /// `0`.
        public var startIndex: Int { 0 }
        /// The number of rows.
        public var endIndex: Int { storage.rowStarts.count - 1 - firstRow }

        /// The row at `index`.
        public subscript(index: Int) -> CSVRow {
            CSVRow(
                layout: layout,
                fields: Int(storage.rowStarts[firstRow + index])..<Int(storage.rowStarts[firstRow + index + 1]))
        }

        /// Whether both hold the same rows.
        public static func == (lhs: Rows, rhs: Rows) -> Bool {
            guard lhs.count == rhs.count else { return false }
            return zip(lhs, rhs).allSatisfy { $0 == $1 }
        }

        /// Hashes the rows' fields.
        public func hash(into hasher: inout Hasher) {
            hasher.combine(count)
            for row in self { hasher.combine(row) }
        }
    }

    /// The storage and the column of each header name, shared by every row (one reference to count per row).
    final class Layout: Sendable {
        let storage: Storage
        let columns: [String: Int]

        init(storage: Storage, columns: [String: Int]) {
            self.storage = storage
            self.columns = columns
        }
    }

    /// The fields of every row: their bytes back to back, where each field ends, and where each row starts.
    final class Storage: Sendable {
        /// Every field's UTF-8 bytes, quotes removed and doubled quotes undone.
        let bytes: [UInt8]
        /// `fieldEnds[i]`: the end of field `i` in ``bytes``; it starts where field `i - 1` ends.
        let fieldEnds: [UInt32]
        /// `rowStarts[r]`: the index of row `r`'s first field; one more entry than rows, the last being the field
        /// count.
        let rowStarts: [UInt32]

        init(bytes: [UInt8], fieldEnds: [UInt32], rowStarts: [UInt32]) {
            self.bytes = bytes
            self.fieldEnds = fieldEnds
            self.rowStarts = rowStarts
        }

        /// The bytes of field `index`.
        func range(ofField index: Int) -> Range<Int> {
            (index == 0 ? 0 : Int(fieldEnds[index - 1]))..<Int(fieldEnds[index])
        }

        /// Field `index` as a string; invalid UTF-8 (possible only when a table is built from bytes) is replaced.
        func string(ofField index: Int) -> String {
            let range = range(ofField: index)
            return bytes.withUnsafeBufferPointer { buffer in
                String(decoding: UnsafeBufferPointer(rebasing: buffer[range]), as: UTF8.self)
            }
        }
    }
}

/// One row of a ``CSVTable``: a random-access collection of its fields as strings, also readable by column name
/// when the table has a header.
///
/// Rows may have fewer or more fields than the header: a missing field reads as `nil` by name.
public struct CSVRow: RandomAccessCollection, Sendable, Hashable {
    let layout: CSVTable.Layout
    let fields: Range<Int>
    var storage: CSVTable.Storage { layout.storage }

    /// `0`.
    public var startIndex: Int { 0 }
    /// The number of fields in this row.
    public var endIndex: Int { fields.count }

    /// Field `index` of the row.
    public subscript(index: Int) -> String { storage.string(ofField: fields.lowerBound + index) }

    /// The field under the header column `name` (its first occurrence), or `nil` when there is no such column or
    /// this row is too short to have it.
    public subscript(name: String) -> String? {
        guard let column = layout.columns[name], column < fields.count else { return nil }
        return self[column]
    }

    /// Whether both rows hold the same fields.
    public static func == (lhs: CSVRow, rhs: CSVRow) -> Bool {
        guard lhs.fields.count == rhs.fields.count else { return false }
        return zip(lhs.fields, rhs.fields).allSatisfy {
            lhs.storage.bytes[lhs.storage.range(ofField: $0)] == rhs.storage.bytes[rhs.storage.range(ofField: $1)]
        }
    }

    /// Hashes the fields.
    public func hash(into hasher: inout Hasher) {
        for field in self { hasher.combine(field) }
    }
}

/// Collects fields into ``CSVTable/Storage``.
struct CSVTableBuilder {
    var bytes: [UInt8] = []
    var fieldEnds: [UInt32] = []
    var rowStarts: [UInt32] = [0]

    mutating func append(field: [UInt8]) {
        bytes += field
        fieldEnds.append(UInt32(truncatingIfNeeded: bytes.count))
    }

    mutating func endRecord() { rowStarts.append(UInt32(truncatingIfNeeded: fieldEnds.count)) }

    func storage() -> CSVTable.Storage { CSVTable.Storage(bytes: bytes, fieldEnds: fieldEnds, rowStarts: rowStarts) }
}
