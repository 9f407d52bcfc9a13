import Foundation

@testable import DecantCore

/// Parses a body of ASCII decimal digits into an `Int`; reports the offset of the first non-digit.
struct IntegerSerializer: ResponseSerializer {
    var ranges: [MediaRange] = [MediaRange(.exact(type: "text", subtype: "x-integer"))]
    var id: SerializerID = "integer"
    /// Whether a body of only whitespace is empty for this format (the empty-body tests turn it off to see the body
    /// reach the serializer).
    var whitespaceIsEmpty = true
    var mediaRanges: [MediaRange] { ranges }

    func countsWhitespaceAsEmpty(for response: Response) -> Bool { whitespaceIsEmpty }

    func serialize(_ response: Response) throws -> Int {
        let bytes = Array(response.body)
        var value = 0
        for (offset, byte) in bytes.enumerated() {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else {
                throw SerializationError(
                    code: .invalidBody, message: "Byte \(byte) is not a decimal digit.", offset: offset)
            }
            let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = product.addingReportingOverflow(Int(byte - UInt8(ascii: "0")))
            guard !overflow1, !overflow2 else {
                throw SerializationError(code: .limitExceeded, message: "The integer overflows.", offset: offset)
            }
            value = sum
        }
        guard !bytes.isEmpty else { throw SerializationError(code: .invalidBody, message: "No digits.") }
        return value
    }

    func emptyValue(for response: Response) throws -> Int { 0 }
}

/// A serializer that throws a plain Swift error, to check wrapping.
struct ThrowingSerializer: ResponseSerializer {
    struct Failure: Error, Equatable { let reason: String }
    var id: SerializerID { "throwingSerializer" }
    var mediaRanges: [MediaRange] { [.any] }
    func serialize(_ response: Response) throws -> String { throw Failure(reason: "boom") }
}
