import DecantCore

#if canImport(FoundationEssentials)
    import FoundationEssentials
#else
    import Foundation
#endif

/// Turns what encoding threw into a `SerializationError` with the coding path and a message that says how to fix it.
enum JSONEncodingFailure {
    static func serializationError(for error: any Error, in encoder: StreamEncoder) -> SerializationError {
        if let error = error as? SerializationError { return error.filling(serializerID: "json") }
        guard let encodingError = error as? EncodingError else {
            let path = (encoder.state.pointee.failurePath ?? encoder.state.pointee.path).map(\.codingKey)
            return SerializationError(
                code: .encodingFailed,
                message: "Encoding failed at \(place(path)): an encode(to:) threw \(type(of: error)): \(error). "
                    + "Check the value there, or the code that encodes it.",
                serializerID: "json", codingPath: JSONDecodingFailure.strings(path), underlying: error)
        }
        let context: EncodingError.Context
        let advice: String
        switch encodingError {
        case .invalidValue(let value, let found):
            context = found
            if value is Double || value is Float {
                advice =
                    " JSON numbers cannot be infinite or NaN (RFC 8259 §6): check the value, or set "
                    + "nonConformingFloatEncodingStrategy to .convertToString to write them as strings."
            } else {
                advice = ""
            }
        @unknown default:
            context = EncodingError.Context(codingPath: [], debugDescription: "\(encodingError)")
            advice = ""
        }
        return SerializationError(
            code: .encodingFailed,
            message: "Encoding failed at \(place(context.codingPath)): \(context.debugDescription)\(advice)",
            serializerID: "json", codingPath: JSONDecodingFailure.strings(context.codingPath),
            underlying: encodingError)
    }

    /// `items[2].price`, or `the top level`.
    static func place(_ path: [any CodingKey]) -> String {
        JSONDecodingFailure.place(path, nil)
    }
}
