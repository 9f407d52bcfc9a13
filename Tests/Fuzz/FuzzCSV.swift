// libFuzzer target: the CSV plugin's parser. Invariants: no crash or hang on any bytes; the rows' field count
// matches the fields read; a table written back as RFC 4180 text (every field quoted) parses to the same table; its
// canonical form holds the same fields.
// fuzz-modules: DecantBytes DecantCompression DecantCore DecantCharset DecantJSON DecantPropertyList DecantXMLParser DecantXMLDocument DecantImage DecantRawHTTP DecantConfiguration DecantConformance DecantValueTree DecantCSV
// fuzz-seeds: Fixtures/csv csv/csv-spectrum/csvs
// fuzz-max-len: 16384
import DecantCore
import DecantJSON
import FoundationEssentials

/// The libFuzzer entry point: parses with small limits under CSV and TSV rules, then round-trips the CSV table.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(UnsafeBufferPointer(start: data, count: size))
    let options = CSVParsingOptions(
        header: .absent, maxFieldBytes: 4096, maxFieldsPerRecord: 256, maxRecords: 4096, maxFields: 2048)
    let tsv = try? MediaType(parsing: "text/tab-separated-values")
    _ = try? CSVParser(options: options).parse(body, mediaType: tsv)
    guard let table = try? CSVParser(options: options).parse(body) else { return 0 }
    // Written byte by byte: a quote followed by a combining mark is one Character, which String replacing misses.
    var text: [UInt8] = []
    for row in table.rows {
        for (index, field) in row.enumerated() {
            if index > 0 { text.append(UInt8(ascii: ",")) }
            text.append(UInt8(ascii: "\""))
            for byte in field.utf8 {
                text.append(byte)
                if byte == UInt8(ascii: "\"") { text.append(byte) }
            }
            text.append(UInt8(ascii: "\""))
        }
        text += [0x0D, 0x0A]
    }
    guard let again = try? CSVParser(options: CSVParsingOptions(header: .absent)).parse(Data(text)) else {
        preconditionFailure("a table written as quoted CSV does not parse: \(String(decoding: text, as: UTF8.self))")
    }
    precondition(again.rows.count == table.rows.count, "the round trip changes the row count")
    for (first, second) in zip(table.rows, again.rows) {
        precondition(Array(first) == Array(second), "the round trip changes a row")
    }
    // The canonical form, written as JSON text from the storage, holds the fields as JSONValues made one by one do.
    let rows = JSONValue.array(table.rows.map { row in JSONValue.array(row.map { JSONValue($0) }) })
    precondition(
        (try? table.conformanceValue()) == JSONValue.object([("header", nil), ("rows", rows)]),
        "the canonical form does not hold the table's fields")
    return 0
}
