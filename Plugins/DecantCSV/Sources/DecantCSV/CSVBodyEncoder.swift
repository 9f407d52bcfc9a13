public import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// The writing capability of the `csv` format: ``CSVTable`` values, and arrays of flat `Encodable` records, to
/// `text/csv` and `text/tab-separated-values` bodies, so that `SerializerRegistry.encode(_:as:options:)` and content
/// negotiation write tables.
///
/// A ``CSVTable`` is written by ``CSVWriter``; an array of `Encodable` records by ``CSVEncoder`` (with the call's
/// `EncodingOptions`: keys, dates, data, non-finite numbers, `.sortedKeys`), then by ``CSVWriter``. The
/// `Content-Type` written is the requested type and subtype with `charset` (UTF-8 unless another was asked for) and
/// `header` (`present` or `absent`, RFC 7111 §5.1) set: `text/csv;charset=utf-8;header=present`.
///
/// ```swift
/// let registry = SerializerRegistry.standard.installing(.csv)
/// let body = try registry.encode(CSVTable(header: ["a"], rows: [["1"]]), as: "text/csv")
/// body.contentType   // text/csv;charset=utf-8;header=present
/// ```
public struct CSVBodyEncoder: BodyEncoder, FormatComponent {
    /// The `csv` format.
    public static var format: MediaFormat { .csv }

    /// The layout: delimiter, quoting, line end.
    public var options: CSVWritingOptions

    /// Creates the encoder.
    public init(options: CSVWritingOptions = CSVWritingOptions()) {
        self.options = options
    }

    /// Whether `value` is a ``CSVTable`` or an `Encodable` array (whose elements must be records: that is found
    /// when it is encoded).
    public func canEncode(_ value: any Sendable) -> Bool {
        value is CSVTable || (value is any Encodable && value is any CSVRowList)
    }

    /// Whether `value` is a ``CSVTable``, the format's own value type.
    public func writesAsOwnType(_ value: any Sendable) -> Bool { value is CSVTable }

    /// Writes `value` as a CSV or TSV body.
    ///
    /// - Throws: `SerializationError`: `unsupportedValue` for a value that is neither a ``CSVTable`` nor an
    ///   `Encodable` array; otherwise as ``CSVEncoder/encodeTable(_:)`` and ``CSVWriter/write(_:as:)`` throw, with
    ///   the media type and the serializer id filled in.
    public func encode(
        _ value: any Sendable, as mediaType: MediaType, options: EncodingOptions
    ) throws(SerializationError) -> EncodedBody {
        let table: CSVTable
        if let given = value as? CSVTable {
            table = given
        } else if let encodable = value as? any Encodable, value is any CSVRowList {
            do {
                table = try CSVEncoder(encodingOptions: options).encodeTable(encodable)
            } catch {
                throw error.filling(mediaType: mediaType, serializerID: id)
            }
        } else {
            throw unsupportedValue(value, as: mediaType)
        }
        let writer = CSVWriter(options: self.options)
        do {
            return EncodedBody(
                body: try writer.write(table, as: mediaType),
                contentType: try writer.contentType(for: table, as: mediaType), serializerID: id)
        } catch {
            throw error.filling(mediaType: mediaType, serializerID: id)
        }
    }
}

/// The collections whose `Encodable` values are lists of rows.
protocol CSVRowList {}
extension Array: CSVRowList {}
extension ContiguousArray: CSVRowList {}
extension ArraySlice: CSVRowList {}

extension CSVSerializerFactory {
    /// The format's encoder, ``CSVBodyEncoder``, writing with the delimiter and quoting of `options`, so that a
    /// configured registry writes what it reads.
    public func makeEncoder(options: CSVParsingOptions) -> (any BodyEncoder)? {
        CSVBodyEncoder(options: CSVWritingOptions(matching: options))
    }
}
