// libFuzzer target: the CSV plugin's parser. Invariants: no crash or hang on any bytes; the rows' field count
// matches the fields read; a table written back as RFC 4180 text (every field quoted) parses to the same table.
// fuzz-modules: DecantCore DecantJSON DecantPropertyList DecantXMLParser DecantXMLDocument DecantImage DecantConformance DecantCSV
// fuzz-seeds: Fixtures/csv csv/csv-spectrum/csvs
// fuzz-max-len: 16384
import DecantCore
import FoundationEssentials

/// The libFuzzer entry point: parses with small limits under CSV and TSV rules, then round-trips the CSV table.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCSV(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let body = Data(UnsafeBufferPointer(start: data, count: size))
    let options = CSVParsingOptions(header: .absent, maxFieldBytes: 4096, maxFieldsPerRecord: 256, maxRecords: 4096)
    let tsv = try? MediaType(parsing: "text/tab-separated-values")
    _ = try? CSVParser(options: options).parse(body, mediaType: tsv)
    guard let table = try? CSVParser(options: options).parse(body) else { return 0 }
    var text = ""
    for row in table.rows {
        text += row.map { "\"" + $0.replacing("\"", with: "\"\"") + "\"" }.joined(separator: ",")
        text += "\r\n"
    }
    guard let again = try? CSVParser(options: CSVParsingOptions(header: .absent)).parse(Data(text.utf8)) else {
        preconditionFailure("a table written as quoted CSV does not parse: \(text.debugDescription)")
    }
    precondition(again.rows.count == table.rows.count, "the round trip changes the row count")
    for (first, second) in zip(table.rows, again.rows) {
        precondition(Array(first) == Array(second), "the round trip changes a row")
    }
    return 0
}
